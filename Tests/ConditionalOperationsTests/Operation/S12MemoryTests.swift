import ConditionalOperations
import ConditionalOperationsTesting
import Foundation
import Testing

extension ConditionalOperationsTests {
    /// S12: a finished operation holds nothing; nothing the library creates outlives the work.
    @Suite struct S12MemoryTests {
        final class TrackedObserver: OperationObserver, Sendable {}
        final class TrackedCondition: OperationCondition, Sendable {
            func evaluate(
                for operation: ConditionalOperation,
                completion: @escaping @Sendable (OperationConditionResult) -> Void
            ) {
                DispatchQueue.global().async { completion(.satisfied) }
            }
        }

        @Test func S12_aFinishedOperationHoldsNoObserverConditionOrProducedOperation() async {
            weak var weakObserver: TrackedObserver?
            weak var weakCondition: TrackedCondition?
            weak var weakProduced: BlockOperation?
            let operation = ProbeOperation(.never)
            do {
                let observer = TrackedObserver()
                let condition = TrackedCondition()
                weakObserver = observer
                weakCondition = condition
                operation.addObserver(observer)
                operation.addCondition(condition)
            }
            let queue = OperationQueue()
            queue.addOperation(operation)
            #expect(await operation.executing.wait())
            do {
                let produced = BlockOperation {}
                weakProduced = produced
                let producedDone = completionLatch([produced])
                operation.produceOperation(produced)
                #expect(await producedDone.wait())
            }
            operation.finish()
            await operation.untilFinished()
            // The thread that told the observers lets go of its copy of them as it returns, which may
            // come after the waiter resumed: bounded, as for the produced operation.
            await waitUntil { weakObserver == nil && weakCondition == nil }
            #expect(weakObserver == nil)
            #expect(weakCondition == nil)
            await waitUntil { weakProduced == nil }
            #expect(weakProduced == nil)
        }

        @Test func S12_nothingOutlivesTheOperationsOnceTheyFinished() async {
            weak var weakOperation: ProbeOperation?
            weak var weakQueue: OperationQueue?
            do {
                let queue = OperationQueue()
                weakQueue = queue
                let dependency = ProbeOperation(.finishLater)
                let operation = ProbeOperation(.finishLater)
                weakOperation = operation
                operation.addDependency(dependency)
                operation.addCondition(LaterCondition())
                operation.addObserver(RecordingObserver())
                queue.add([dependency, operation])
                await operation.untilFinished()
                #expect(operation.dependencies == [dependency], "no hidden helper operations")
            }
            await waitUntil { weakOperation == nil && weakQueue == nil }
            #expect(weakOperation == nil)
            #expect(weakQueue == nil)
        }
    }
}
