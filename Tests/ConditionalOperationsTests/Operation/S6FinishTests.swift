import ConditionalOperations
import ConditionalOperationsTesting
import Foundation
import Testing

extension ConditionalOperationsTests {
    /// S6: the first finish wins; finish before execution, inside execute() or later from any thread.
    @Suite struct S6FinishTests {
        @Test func S6_theFirstFinishWins() async {
            let operation = ProbeOperation(.finishWith([TestError(1)]))
            let done = completionLatch([operation])
            OperationQueue().addOperation(operation)
            #expect(await done.wait())
            operation.finish(error: TestError(2))
            #expect(operation.errors as? [TestError] == [TestError(1)])
            #expect(operation.failed)
            #expect(operation.hooks.all == ["finished(1)"])
        }

        @Test func S6_aValueGivenAfterAPlainFinishBeforeExecutionIsIgnored() async {
            let operation = HeldOperation()
            operation.finish()
            operation.finish(returning: 5)
            let done = completionLatch([operation])
            OperationQueue().addOperation(operation)
            #expect(await done.wait())
            #expect(operation.result == nil, "the first finish (without a value) wins")
            #expect(operation.executing.remaining == 1, "it never executed")
        }

        @Test func S6_finishBeforeExecutionFinishesWithoutExecutingOnceStarted() async {
            let operation = ProbeOperation()
            let observer = RecordingObserver()
            operation.addObserver(observer)
            operation.finish(error: TestError(3))
            #expect(!operation.isFinished)
            let done = completionLatch([operation])
            OperationQueue().addOperation(operation)
            #expect(await done.wait())
            #expect(operation.executions.current == 0)
            #expect(operation.errors as? [TestError] == [TestError(3)])
            #expect(observer.callbacks == ["didFinish"])
        }

        @Test func S6_finishInsideExecuteIsSynchronous() {
            let operation = ProbeOperation()
            operation.start()
            #expect(operation.isFinished)
            #expect(operation.state == .finished)
            #expect(!operation.failed)
        }

        @Test func S6_finishLaterFromAnotherThread() async {
            let operation = ProbeOperation(.finishLater)
            operation.start()
            await operation.untilFinished()
            #expect(operation.isFinished)
            #expect(operation.executions.current == 1)
        }

        @Test func waitUntilFinishedReturnsAfterTheDidFinishObservers() async {
            let operation = ProbeOperation(.finishLater)
            let observed = Counter()
            operation.addObserver(BlockObserver(didFinish: { _, _ in observed.increment() }))
            OperationQueue().addOperation(operation)
            await operation.untilFinished()
            #expect(observed.current == 1)
            #expect(operation.isFinished)
            await operation.untilFinished()  // returns at once once finished
        }

        @Test func manualStartWaitsForConditionsWithoutBlocking() async throws {
            let condition = ManualCondition()
            let operation = ProbeOperation()
            operation.addCondition(condition)
            operation.start()
            try await condition.waitUntilEvaluated(timeout: .seconds(20))
            #expect(operation.state == .evaluatingConditions)
            condition.answer(.satisfied)
            await operation.untilFinished()
            #expect(operation.executions.current == 1)
        }

        @Test func S10_producedOperationsRunAndObserversHearOfThem() async {
            let produced = BlockOperation {}
            let producedDone = completionLatch([produced])
            let observer = RecordingObserver()
            let operation = ProbeOperation(.never)
            operation.addObserver(observer)
            operation.start()  // no queue: the library runs what it produces
            operation.produceOperation(produced)
            #expect(await producedDone.wait())
            operation.finish()
            #expect(observer.callbacks == ["didStart", "didProduce", "didFinish"])
        }
    }
}
