import ConditionalOperations
import ConditionalOperationsTesting
import Foundation
import Testing

extension ConditionalOperationsTests {
    /// S4 (cancel before executing) and S5 (cancel while executing).
    @Suite struct S4S5CancelTests {
        @Test func S4_cancelBeforeExecutingFinishesWithoutExecutingOnceStarted() async {
            let dependency = ProbeOperation(.never)
            let operation = ProbeOperation()
            let observer = RecordingObserver()
            operation.addObserver(observer)
            operation.addCondition(ManualCondition())
            operation.addDependency(dependency)
            let queue = OperationQueue()
            queue.isSuspended = true
            let done = completionLatch([operation])
            queue.addOperation(operation)
            operation.cancel(with: TestError(1))
            operation.cancel(with: TestError(2))
            #expect(operation.isReady, "cancel abandons the unfinished dependency")
            #expect(!operation.isFinished, "never finishes before the queue starts it")
            queue.isSuspended = false
            #expect(await done.wait())
            #expect(operation.executions.current == 0)
            #expect(operation.errors as? [TestError] == [TestError(1), TestError(2)])
            #expect(observer.callbacks == ["didCancel", "didFinish"])
            dependency.cancel()
            dependency.start()
        }

        @Test func S4_cancelledOperationsInASuspendedQueueDoNotCrashIt() async {
            // swift-corelibs-foundation crashes when an operation finishes before the queue started it.
            let queue = OperationQueue()
            queue.isSuspended = true
            let gate = ProbeOperation(.never)
            let operations = (0..<200).map { index in
                let operation = ProbeOperation()
                if index.isMultiple(of: 2) { operation.addDependency(gate) }
                if index.isMultiple(of: 3) { operation.addCondition(LaterCondition()) }
                return operation
            }
            let done = completionLatch(operations)
            queue.add(operations)
            for (index, operation) in operations.enumerated() where index % 5 < 2 {
                operation.cancel()
            }
            #expect(operations.allSatisfy { !$0.isFinished })
            queue.isSuspended = false
            queue.addOperation(gate)
            gate.finish()
            #expect(await done.wait())
            for (index, operation) in operations.enumerated() {
                #expect(operation.executions.current == (index % 5 < 2 ? 0 : 1))
            }
            // The queue still works afterwards.
            let later = ProbeOperation()
            let laterDone = completionLatch([later])
            queue.addOperation(later)
            #expect(await laterDone.wait())
        }

        @Test func S4_aCancelledOperationIsReadyEvenWithUnfinishedDependencies() {
            let dependency = BlockOperation {}
            let operation = ProbeOperation()
            operation.addDependency(dependency)
            #expect(!operation.isReady)
            operation.cancel()
            #expect(operation.isReady)
            #expect(operation.state == .ready)
        }

        @Test func S4_cancelOnceFinishedChangesNothing() async {
            let operation = ProbeOperation()
            operation.start()
            #expect(operation.isFinished)
            operation.cancel(with: TestError())
            #expect(!operation.isCancelled)
            #expect(operation.errors.isEmpty)
        }

        @Test func S5_cancelWhileExecutingFinishesAtOnceAndIgnoresTheLateFinish() async {
            let operation = ProbeOperation(.never)
            let observer = RecordingObserver()
            operation.addObserver(observer)
            let done = completionLatch([operation])
            OperationQueue().addOperation(operation)
            #expect(await operation.executing.wait())
            operation.cancel(with: TestError(5))
            #expect(await done.wait())
            #expect(operation.isCancelled)
            operation.finish(error: TestError(6))
            #expect(operation.errors as? [TestError] == [TestError(5)])
            #expect(observer.callbacks == ["didStart", "didCancel", "didFinish"])
        }

        @Test func S5_anOperationThatFinishesItselfStaysExecutingUntilItDoes() async {
            let operation = ProbeOperation(.never, finishesWhenCancelled: false)
            let cancelled = Latch()
            operation.addObserver(BlockObserver(didCancel: { _, _ in cancelled.countDown() }))
            let done = completionLatch([operation])
            OperationQueue().addOperation(operation)
            // Once execute() began: a cancel before it would rightly skip it and finish at once.
            #expect(await operation.executing.wait())
            operation.cancel()
            #expect(await cancelled.wait())
            #expect(operation.isExecuting)
            #expect(!operation.isFinished)
            operation.finish(error: TestError(8))
            #expect(await done.wait())
            #expect(operation.errors as? [TestError] == [TestError(8)])
        }
    }
}
