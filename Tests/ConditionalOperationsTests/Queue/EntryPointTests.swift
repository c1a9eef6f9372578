import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests {
    /// Every `OperationQueue` entry point that adds work is overridden, none trusted to pass
    /// through another: each admits its work once (told to the delegate, counted, waited for).
    @Suite struct EntryPointTests {
        typealias RecordingDelegate = ConditionalOperationQueueTests.RecordingDelegate

        enum EntryPoint: String, CaseIterable, Sendable {
            case addOperation, addOperationBlock, addOperations, addBarrierBlock
        }

        @Test(arguments: EntryPoint.allCases)
        func eachEntryPointAdmitsItsWorkOnce(entryPoint: EntryPoint) async {
            let queue = ConditionalOperationQueue()
            let delegate = RecordingDelegate()
            queue.delegate = delegate
            queue.isSuspended = true
            let ran = Counter()
            let work: @Sendable () -> Void = { _ = ran.increment() }
            switch entryPoint {
            case .addOperation: queue.addOperation(BlockOperation(block: work))
            case .addOperationBlock: queue.addOperation(work)
            case .addOperations: queue.add([BlockOperation(block: work)])
            case .addBarrierBlock: queue.addBarrierBlock(work)
            }
            #expect(delegate.added.all.count == 1, "told to the delegate once")
            #expect(queue.unfinishedOperationCount == 1, "counted once")
            queue.isSuspended = false
            #expect(await within { await queue.waitUntilIdle() } != nil)
            await waitUntil { delegate.finished.all.count == 1 }
            #expect(ran.current == 1)
            #expect(delegate.finished.all.count == 1)
        }

        /// A queue whose Foundation `addOperation(_:)` routes into `addOperations(_:waitUntilFinished:)`,
        /// as an `OperationQueue` may: the operation the queue hands over reaches its override again.
        final class RoutingQueue: ConditionalOperationQueue, @unchecked Sendable {  // state: `routed`
            let routed = Counter()

            override func addToFoundation(_ operation: Foundation.Operation) {
                _ = routed.increment()
                addOperations([operation], waitUntilFinished: false)
            }
        }

        /// A plain operation with readiness of its own: the queue hands it to Foundation's scheduler.
        final class OwnReadiness: Foundation.Operation, @unchecked Sendable {  // state: `ready`'s lock
            private let ready = Locked(false)
            let ran = Counter()

            override var isReady: Bool { ready.withLock { $0 } && super.isReady }

            override func main() { _ = ran.increment() }

            func becomeReady() {
                willChangeValue(forKey: "isReady")
                ready.withLock { $0 = true }
                didChangeValue(forKey: "isReady")
            }
        }

        @Test func anOperationHandedToFoundationThroughAnotherEntryPointIsAdmittedOnce() async {
            let queue = RoutingQueue()
            let delegate = RecordingDelegate()
            queue.delegate = delegate
            let operation = OwnReadiness()
            queue.addOperation(operation)
            #expect(queue.routed.current == 1, "handed to Foundation's scheduler")
            #expect(delegate.added.all.count == 1 && queue.unfinishedOperationCount == 1)
            operation.becomeReady()
            #expect(await within { await queue.waitUntilIdle() } != nil)
            await waitUntil { delegate.finished.all.count == 1 }
            #expect(operation.ran.current == 1)
            #expect(delegate.added.all.count == 1 && delegate.finished.all.count == 1)
        }

        /// swift-corelibs-foundation's own queue hangs the caller adding a cancelled operation while
        /// a barrier block waits (it asks the operation `isReady` holding its lock, and the `true`
        /// schedules under the same lock): the queue's barriers are its own.
        @Test func aCancelledOperationAddedWhileABarrierWaitsIsAdded() async {
            let queue = ConditionalOperationQueue()
            let blocker = DispatchSemaphore(value: 0)
            queue.addOperation { _ = blocker.wait(timeout: .now() + 10) }
            queue.addBarrierBlock {}
            let conditional = ProbeOperation()
            conditional.cancel()
            let plain = BlockOperation {}
            plain.cancel()
            let added = Latch(count: 2)
            for operation in [conditional, plain] as [Foundation.Operation] {
                DispatchQueue.global().async {
                    queue.addOperation(operation)
                    added.countDown()
                }
            }
            #expect(await added.wait(seconds: 5))
            blocker.signal()
            #expect(await within { await queue.waitUntilIdle() } != nil)
        }

        /// There Foundation asks `isReady` holding its queue's lock: the first answer of an operation
        /// whose dependencies were added before it hands them to Foundation, which asks again, and
        /// schedules (taking that lock) only on a `true`, never given meanwhile.
        @Test func anOperationWithHeldBackDependenciesAddedToAPlainQueueWhileABarrierWaitsRuns() async {
            let queue = OperationQueue()
            let blocker = DispatchSemaphore(value: 0)
            queue.addOperation { _ = blocker.wait(timeout: .now() + 10) }
            queue.addBarrierBlock {}
            let finished = BlockOperation {}
            finished.start()
            let unfinished = BlockOperation {}
            let operation = ProbeOperation()
            operation.addDependency(finished)
            operation.addDependency(unfinished)
            let done = completionLatch([operation])
            let added = Latch()
            DispatchQueue.global().async {
                queue.addOperation(operation)
                added.countDown()
            }
            #expect(await added.wait(seconds: 5))
            blocker.signal()
            queue.addOperation(unfinished)
            #expect(await done.wait(seconds: 10))
        }
    }
}
