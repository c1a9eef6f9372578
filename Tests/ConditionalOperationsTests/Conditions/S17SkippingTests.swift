import ConditionalOperationsTesting
import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests {
    /// S17: a condition answering `.skipped` (and none failing) finishes the operation without
    /// executing and without error; dependents go on as after a success.
    @Suite struct S17SkippingTests {
        static let nothingToDo = SkippingCondition(BlockCondition(name: "has changes") { false })

        @Test func S17_aSkippedOperationFinishesWithoutExecutingOrError() async {
            let operation = ProbeOperation()
            operation.addCondition(Self.nothingToDo)
            let observer = RecordingObserver()
            operation.addObserver(observer)
            let done = completionLatch([operation])
            OperationQueue().addOperation(operation)
            #expect(await done.wait())
            #expect(operation.executions.current == 0)
            #expect(operation.isSkipped)
            #expect(!operation.failed && !operation.isCancelled && operation.errors.isEmpty)
            #expect(observer.callbacks == ["didFinish"], "no didStart, no didCancel")
        }

        @Test func S17_aSatisfiedSkippingConditionLetsItExecute() async {
            let operation = ProbeOperation()
            operation.addCondition(SkippingCondition(BlockCondition { true }))
            let done = completionLatch([operation])
            ConditionalOperationQueue().addOperation(operation)
            #expect(await done.wait())
            #expect(operation.executions.current == 1)
            #expect(!operation.isSkipped)
        }

        @Test func S17_aFailureBeatsASkip() async {
            let operation = ProbeOperation()
            operation.addCondition(Self.nothingToDo)
            operation.addCondition(BlockCondition(name: "signed in") { false })
            let done = completionLatch([operation])
            OperationQueue().addOperation(operation)
            #expect(await done.wait())
            #expect(!operation.isSkipped && operation.failed)
            #expect(operation.errors.map { "\($0)" } == ["condition 'signed in' failed"])
        }

        @Test func S17_aCancelBeatsASkip() async {
            let operation = ProbeOperation()
            operation.addCondition(Self.nothingToDo)
            operation.cancel()
            let done = completionLatch([operation])
            OperationQueue().addOperation(operation)
            #expect(await done.wait())
            #expect(operation.isCancelled && !operation.isSkipped)
        }

        @Test func S17_aDependentSeesASkippedDependencyAsASuccess() async {
            let skipped = ProbeOperation()
            skipped.addCondition(Self.nothingToDo)
            let dependent = ProbeOperation()
            dependent.addCondition(NoFailedDependencies())
            dependent.addDependency(skipped)
            let done = completionLatch([dependent])
            OperationQueue().add([skipped, dependent])
            #expect(await done.wait())
            #expect(dependent.executions.current == 1)
        }

        @Test func S17_aConsumerOfASkippedProducerFailsSayingItWasSkipped() async {
            let producer = ValueOperation<Int>(.success(1))
            producer.name = "fetch"
            producer.addCondition(Self.nothingToDo)
            let consumer = ValueOperation<Bool>(.success(true))
            consumer.inject(from: producer) { _, _ in Issue.record("handed over from a skipped producer") }
            let done = completionLatch([consumer])
            OperationQueue().add([producer, consumer])
            #expect(await done.wait())
            #expect(consumer.executions.current == 0)
            #expect(
                consumer.errors.map { "\($0)" } == ["1 dependency failed: dependency 'fetch' was skipped"])
        }

        @Test func S17_eventsShowASkipAsAFinishWithoutExecuting() async {
            let operation = ProbeOperation()
            operation.addCondition(Self.nothingToDo)
            let events = operation.events
            OperationQueue().addOperation(operation)
            #expect(
                await S16EventsTests.collect(events) == [
                    "initialized", "pending", "evaluatingConditions", "ready", "finishing", "finished",
                    "didFinish(0)",
                ])
        }

        @Test func S17_theDiagnosisTheLogAndTheGraphSaySkipped() async {
            let operation = ProbeOperation()
            operation.name = "upload"
            operation.addCondition(Self.nothingToDo)
            let records = Recorder()
            operation.addLogger(BlockLogger { records.record($0.description) })
            let done = completionLatch([operation])
            OperationQueue().addOperation(operation)
            #expect(await done.wait())
            #expect(operation.diagnosis.description.contains("skipped"))
            if case .skipped = operation.diagnosis.reason {
            } else {
                Issue.record("\(operation.diagnosis.reason)")
            }
            await waitUntil(seconds: 10) { records.all.last?.hasSuffix("finished, skipped") == true }
            #expect(
                records.all.contains { $0.contains("condition Skipping<has changes> skipped the operation") })
            #expect(records.all.last == "ProbeOperation 'upload': finished, skipped")
            #expect(OperationGraph([operation]).dot.contains("skipped"))
        }

        @Test func S17_aNegatedSkipIsASkip() async {
            let operation = ProbeOperation()
            operation.addCondition(NegatedCondition(Self.nothingToDo))
            let done = completionLatch([operation])
            OperationQueue().addOperation(operation)
            #expect(await done.wait())
            #expect(operation.isSkipped && operation.executions.current == 0)
        }
    }
}
