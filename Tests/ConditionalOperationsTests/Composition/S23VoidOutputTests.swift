import ConditionalOperationsTesting
import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests.CompositionTests {
    /// S23: a `ResultOperation<Void>` that finishes without errors finishes with `()`.
    @Suite struct S23VoidOutputTests {
        /// A subclass of `ResultOperation<Void>` that finishes as a plain operation does.
        final class SaveOperation: ResultOperation<Void>, @unchecked Sendable {
            // no mutable state
            override func execute() {
                DispatchQueue.global().async { self.finish() }
            }
        }

        /// Runs `handOver` on the Void output of a producer, then finishes.
        final class AfterVoid: ConditionalOperation, @unchecked Sendable {
            // stored state: lets only (a recorder)
            let received = Recorder()

            override func execute() {
                received.record("executed")
                finish()
            }
        }

        @Test func S23_valueReturnsForAClosureOperationOfVoidFinishedPlainly() async throws {
            let operation = ClosureOperation<Void> { $0.finish() }
            OperationQueue().addOperation(operation)
            let outcome = try #require(await within { try await operation.value })
            #expect(throws: Never.self) { try outcome.get() }
        }

        @Test func S23_queueRunReturnsForFinishWithNoErrors() async throws {
            let operation = ClosureOperation<Void> { $0.finish(errors: []) }
            let outcome = try #require(await within { try await ConditionalOperationQueue().run(operation) })
            #expect(throws: Never.self) { try outcome.get() }
            #expect(throws: Never.self) { try operation.result?.get() }
            #expect(operation.result != nil)
        }

        @Test func S23_aConsumerInjectsFromAVoidProducer() async {
            let producer = ClosureOperation<Void>(name: "save") { $0.finish() }
            let consumer = AfterVoid()
            consumer.inject(from: producer) { consumer, _ in consumer.received.record("handed over") }
            let done = completionLatch([consumer])
            OperationQueue().add([producer, consumer])
            #expect(await done.wait())
            #expect(consumer.errors.map { "\($0)" } == [])
            #expect(consumer.received.all == ["handed over", "executed"])
        }

        @Test func S23_aRetryOfVoidAttemptsSucceeds() async throws {
            let retry = RetryOperation<Void>(maximumAttempts: 3) { attempt in
                ClosureOperation<Void> { attempt < 2 ? $0.finish(error: TestError(attempt)) : $0.finish() }
            }
            let outcome = try #require(await within { try await OperationQueue().run(retry) })
            #expect(throws: Never.self) { try outcome.get() }
            #expect(retry.attemptCount == 2)
        }

        @Test func S23_aRepeatOfVoidIterationsSucceeds() async throws {
            let repeating = RepeatOperation<Void>(maximumCount: 3) { _ in
                ClosureOperation<Void> { $0.finish() }
            }
            let outcome = try #require(await within { try await OperationQueue().run(repeating) })
            #expect(throws: Never.self) { try outcome.get() }
            #expect(repeating.iterationCount == 3)
        }

        @Test func S23_aSubclassOfResultOperationOfVoidFinishedPlainlyHasAValue() async throws {
            let operation = SaveOperation()
            OperationQueue().addOperation(operation)
            let outcome = try #require(await within { try await operation.value })
            #expect(throws: Never.self) { try outcome.get() }
        }

        @Test func S23_aFailedOrCancelledVoidOperationStillFails() async throws {
            let failed = ClosureOperation<Void> { $0.finish(error: TestError(1)) }
            let failure = try #require(await within { try await OperationQueue().run(failed) })
            #expect(failure.failure as? TestError == TestError(1))

            let cancelled = ClosureOperation<Void> { $0.finish() }
            cancelled.cancel()
            let cancellation = try #require(await within { try await OperationQueue().run(cancelled) })
            #expect(cancellation.failure is CancellationError)
        }

        @Test func S23_S17_aSkippedVoidProducerHasNoOutputToHandOver() async {
            let producer = ClosureOperation<Void>(name: "save") { $0.finish() }
            producer.addCondition(SkippingCondition(BlockCondition(name: "has changes") { false }))
            let consumer = AfterVoid()
            consumer.inject(from: producer) { _, _ in Issue.record("handed over from a skipped producer") }
            let done = completionLatch([consumer])
            OperationQueue().add([producer, consumer])
            #expect(await done.wait())
            #expect(producer.result == nil)
            #expect(
                consumer.errors.map { "\($0)" } == ["1 dependency failed: dependency 'save' was skipped"])
        }
    }
}
