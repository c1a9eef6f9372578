import ConditionalOperations
import ConditionalOperationsTesting
import Foundation
import Testing

extension ConditionalOperationsTests {
    /// S1: observer callbacks never overlap and come in order; execute() at most once.
    @Suite struct S1ObserverOrderTests {
        @Test func S1_anExecutedOperationReportsStartProduceCancelFinishInOrder() async {
            let operation = ProbeOperation(.never, finishesWhenCancelled: false)
            let observer = RecordingObserver()
            operation.addObserver(observer)
            let done = completionLatch([operation])
            OperationQueue().addOperation(operation)
            #expect(await operation.executing.wait())
            operation.produceOperation(BlockOperation {})
            operation.cancel()
            operation.finish()
            #expect(await done.wait())
            #expect(observer.callbacks == ["didStart", "didProduce", "didCancel", "didFinish"])
            #expect(operation.executions.current == 1)
            #expect(operation.hooks.all == ["finished(0)"])
        }

        @Test func S1_aNeverExecutedOperationGetsNoDidStart() async {
            let operation = ProbeOperation()
            let observer = RecordingObserver()
            operation.addObserver(observer)
            operation.cancel()
            let done = completionLatch([operation])
            OperationQueue().addOperation(operation)
            #expect(await done.wait())
            #expect(observer.callbacks == ["didCancel", "didFinish"])
            #expect(operation.executions.current == 0)
        }

        @Test func S1_aDidStartObserverThatCancelsPreventsExecute() async {
            let operation = ProbeOperation()
            operation.addObserver(BlockObserver(didStart: { $0.cancel() }))
            let observer = RecordingObserver()
            operation.addObserver(observer)
            let done = completionLatch([operation])
            OperationQueue().addOperation(operation)
            #expect(await done.wait())
            #expect(operation.executions.current == 0)
            #expect(operation.isCancelled)
            #expect(observer.callbacks == ["didStart", "didCancel", "didFinish"])
        }

        @Test func S1_aDidStartObserverThatFinishesPreventsExecute() async {
            let operation = ProbeOperation()
            operation.addObserver(BlockObserver(didStart: { $0.finish(error: TestError(7)) }))
            let done = completionLatch([operation])
            OperationQueue().addOperation(operation)
            #expect(await done.wait())
            #expect(operation.executions.current == 0)
            #expect(operation.errors as? [TestError] == [TestError(7)])
        }

        @Test func S1_concurrentCancelsProducesAndFinishesNeverOverlap() async {
            let queue = OperationQueue()
            var operations: [ProbeOperation] = []
            var observers: [RecordingObserver] = []
            for _ in 0..<200 {
                let operation = ProbeOperation(.never)
                let observer = RecordingObserver()
                operation.addObserver(observer)
                operation.addObserver(
                    BlockObserver(didStart: { operation in
                        DispatchQueue.global().async { operation.produceOperation(BlockOperation {}) }
                        DispatchQueue.global().async { operation.cancel(with: TestError(1)) }
                        DispatchQueue.global().async { operation.finish() }
                    }))
                operations.append(operation)
                observers.append(observer)
            }
            let done = completionLatch(operations)
            queue.add(operations)
            #expect(await done.wait())
            for (operation, observer) in zip(operations, observers) {
                #expect(observer.overlapCount == 0)
                #expect(observer.callbacks.first == "didStart")
                #expect(observer.callbacks.last == "didFinish")
                #expect(observer.callbacks.count(where: { $0 == "didFinish" }) == 1)
                #expect(observer.callbacks.count(where: { $0 == "didCancel" }) <= 1)
                // A cancel landing before execute() began skips it.
                #expect(operation.executions.current <= 1)
                #expect(operation.hooks.all.count == 1, "finished(errors:) exactly once")
                #expect(operation.state == .finished)
            }
        }

        @Test func S1_everyEnqueuedOperationFinishesExactlyOnce() async {
            let queue = OperationQueue()
            let finishes = Counter()
            let operations = (0..<500).map { index in
                let operation = ProbeOperation(index.isMultiple(of: 2) ? .finishAtOnce : .finishLater)
                operation.addObserver(BlockObserver(didFinish: { _, _ in finishes.increment() }))
                return operation
            }
            for (index, operation) in operations.enumerated() where index > 0 && index.isMultiple(of: 3) {
                operation.addDependency(operations[index - 1])
            }
            let done = completionLatch(operations)
            queue.add(operations)
            #expect(await done.wait())
            #expect(finishes.current == operations.count)
            #expect(operations.allSatisfy { $0.executions.current == 1 && $0.isFinished })
        }
    }
}
