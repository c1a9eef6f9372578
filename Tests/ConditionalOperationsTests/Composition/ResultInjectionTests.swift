import ConditionalOperationsTesting
import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests.CompositionTests {
    /// Typed results: `ResultOperation` and `inject(from:_:)`, which hands a producer's output to
    /// its consumer before the consumer executes.
    @Suite struct ResultInjectionTests {
        /// Records what it was handed and when it executed.
        final class Consumer: ConditionalOperation, @unchecked Sendable {  // mutable state: behind Locked
            let received = Locked<[Int]>([])
            let executedWith = Locked<[Int]?>(nil)

            override func execute() {
                executedWith.withLock { $0 = received.withLock { $0 } }
                finish()
            }
        }

        /// Doubles the number it is handed, as a typed result of its own.
        final class Doubler: ResultOperation<Int>, @unchecked Sendable {  // mutable state: behind Locked
            let input = Locked<Int?>(nil)

            override func execute() {
                guard let input = input.withLock({ $0 }) else { return finish(error: TestError(0)) }
                finish(returning: input * 2)
            }
        }

        @Test func theResultIsNilUntilTheOperationFinishedThenItsValue() async throws {
            let operation = ValueOperation<String>(.success("done"), later: true)
            #expect(operation.result == nil)
            OperationQueue().addOperation(operation)
            await operation.untilFinished()
            #expect(try operation.result?.get() == "done")
            #expect(operation.errors.isEmpty)
        }

        @Test func aFailureIsTheResultAndTheErrors() async {
            let operation = ValueOperation<String>(.failure(TestError(5)))
            OperationQueue().addOperation(operation)
            await operation.untilFinished()
            #expect(throws: TestError(5)) { try operation.result?.get() }
            #expect(testErrorIDs(operation.errors) == [5])
        }

        @Test func aCancelledOperationFailsWithItsCancelErrorOrCancellationError() async {
            let plain = ValueOperation<Int>(.success(1))
            plain.cancel()
            let withError = ValueOperation<Int>(.success(1))
            withError.cancel(with: TestError(3))
            OperationQueue().add([plain, withError])
            await plain.untilFinished()
            await withError.untilFinished()
            #expect(throws: CancellationError.self) { try plain.result?.get() }
            #expect(throws: TestError(3)) { try withError.result?.get() }
        }

        @Test func S6_theFirstFinishWinsAndAPlainFinishLeavesNoValue() async throws {
            let operation = ValueOperation<Int>(.success(1))
            OperationQueue().addOperation(operation)
            await operation.untilFinished()
            operation.finish(returning: 2)
            #expect(try operation.result?.get() == 1)
            let plain = ResultOperation<Int>()  // the default execute() finishes without a value
            OperationQueue().addOperation(plain)
            await plain.untilFinished()
            #expect(plain.result == nil)
        }

        @Test func injectHandsTheOutputOverBeforeTheConsumerExecutes() async {
            let producer = ValueOperation<Int>(.success(21), later: true)
            let consumer = Consumer()
            consumer.inject(from: producer) { consumer, value in
                consumer.received.withLock { $0.append(value) }
            }
            #expect(consumer.dependencies == [producer])
            let done = completionLatch([consumer])
            OperationQueue().add([consumer, producer])
            #expect(await done.wait())
            #expect(consumer.executedWith.withLock { $0 } == [21])
        }

        @Test func typedResultsFlowAlongAChainOnAConditionalQueue() async throws {
            let source = ValueOperation<Int>(.success(5))
            let first = Doubler()
            first.inject(from: source) { first, value in first.input.withLock { $0 = value } }
            let second = Doubler()
            second.inject(from: first) { second, value in second.input.withLock { $0 = value } }
            ConditionalOperationQueue().add([second, first, source])
            await second.untilFinished()
            #expect(try second.result?.get() == 20)
        }

        @Test func injectFromAProducerThatAlreadyFinished() async {
            let producer = ValueOperation<Int>(.success(7))
            OperationQueue().addOperation(producer)
            await producer.untilFinished()
            let consumer = Consumer()
            consumer.inject(from: producer) { consumer, value in
                consumer.received.withLock { $0.append(value) }
            }
            let done = completionLatch([consumer])
            OperationQueue().addOperation(consumer)
            #expect(await done.wait())
            #expect(consumer.executedWith.withLock { $0 } == [7])
        }

        @Test func S2_aFailedProducerFinishesTheConsumerWithoutExecutingWithDependenciesFailed() async {
            let producer = ValueOperation<Int>(.failure(TestError(1)))
            let consumer = ProbeOperation()
            let handed = Counter()
            consumer.inject(from: producer) { _, _ in handed.increment() }
            let observer = RecordingObserver()
            consumer.addObserver(observer)
            ConditionalOperationQueue().add([producer, consumer])
            await consumer.untilFinished()
            #expect(consumer.executions.current == 0)
            #expect(handed.current == 0)
            #expect(
                consumer.errors.map { $0 as? OperationError } == [
                    .dependenciesFailed([.expected("ValueOperation<Int>", [TestError(1)])])
                ])
            #expect(!consumer.isCancelled, "a failed condition is no cancellation")
            #expect(observer.callbacks == ["didFinish"])
        }

        @Test func S2_aCancelledProducerFinishesTheConsumerWithoutExecutingWithDependenciesCancelled() async {
            let producer = ValueOperation<Int>(.success(1))
            producer.name = "producer"
            producer.cancel()
            let consumer = ProbeOperation()
            consumer.inject(from: producer) { _, _ in Issue.record("handed over from a cancelled producer") }
            OperationQueue().add([producer, consumer])
            await consumer.untilFinished()
            #expect(consumer.executions.current == 0)
            #expect(
                consumer.errors.map { $0 as? OperationError } == [
                    .dependenciesCancelled([.expected("producer", cancelled: true)])
                ])
            #expect(!consumer.isCancelled)
        }

        @Test func aProducerFinishingWithoutAValueFailsTheConsumer() async {
            let producer = ResultOperation<Int>()
            let consumer = ProbeOperation()
            consumer.inject(from: producer) { _, _ in }
            OperationQueue().add([producer, consumer])
            await consumer.untilFinished()
            #expect(
                consumer.errors.map { $0 as? OperationError } == [
                    .dependenciesFailed([.expected("ResultOperation<Int>")])
                ])
            #expect(
                consumer.errors.map { "\($0)" } == [
                    "1 dependency failed: dependency 'ResultOperation<Int>' failed"
                ])
        }

        @Test func aThrowingHandOverFailsTheConsumerWithItsError() async {
            let producer = ValueOperation<Int>(.success(-1))
            let consumer = ProbeOperation()
            consumer.inject(from: producer) { _, value in
                if value < 0 { throw TestError(9) }
            }
            OperationQueue().add([producer, consumer])
            await consumer.untilFinished()
            #expect(consumer.executions.current == 0)
            #expect(testErrorIDs(consumer.errors) == [9])
        }

        final class Captured: Sendable {}

        /// An injection whose closure holds the only reference to an object `captured` watches.
        static func inject(
            into consumer: Consumer, from producer: ValueOperation<Int>, holding captured: WeakBox<Captured>
        ) {
            let object = Captured()
            captured.set(object)
            consumer.inject(from: producer) { _, _ in _ = object }
        }

        @Test func S12_theInjectionIsReleasedOnceHandedOverAndHoldsNeitherOperation() async {
            let captured = WeakBox<Captured>()
            let weakProducer = WeakBox<ValueOperation<Int>>()
            let weakConsumer = WeakBox<Consumer>()
            let evaluatedBeforeExecuting = Box(false)
            do {
                let producer = ValueOperation<Int>(.success(1))
                let consumer = Consumer()
                weakProducer.set(producer)
                weakConsumer.set(consumer)
                Self.inject(into: consumer, from: producer, holding: captured)
                consumer.addObserver(
                    BlockObserver(didStart: { _ in evaluatedBeforeExecuting.value = captured.object == nil }))
                let done = completionLatch([consumer])
                OperationQueue().add([producer, consumer])
                #expect(await done.wait())
            }
            #expect(evaluatedBeforeExecuting.value, "released after evaluation, before executing (S2)")
            await waitUntil(seconds: 10) { weakProducer.object == nil && weakConsumer.object == nil }
            #expect(captured.object == nil)
            #expect(weakConsumer.object == nil)
            #expect(weakProducer.object == nil)
        }
    }
}
