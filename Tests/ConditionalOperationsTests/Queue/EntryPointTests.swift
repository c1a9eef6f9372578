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
            let conditional = ProbeOperation()
            conditional.cancel()
            let plain = BlockOperation {}
            plain.cancel()
            guard let blocker = await Self.addWhileABarrierWaits([conditional, plain], to: queue) else {
                return
            }
            blocker.signal()
            #expect(await within { await queue.waitUntilIdle() } != nil)
        }

        /// A plain queue makes an operation added while a barrier block waits depend on it, itself,
        /// not through `addDependency(_:)`, and reads `isReady` again as it does, holding its
        /// queue's lock: a `true` there would schedule under that lock (and start the operation
        /// before the barrier). A ready operation waits for the barrier like any other.
        @Test func aReadyOperationAddedToAPlainQueueWhileABarrierWaitsRunsAfterIt() async {
            let order = Recorder()
            await Self.expectRunsAfterABarrier(
                Self.recording(in: order), recordedIn: order, on: OperationQueue())
        }

        /// swift-corelibs-foundation keeps counting a dependency removed unfinished, and leaves
        /// its barrier blocks out of `dependencies`: on its own queue such an operation cannot
        /// tell a barrier was added (LinuxNotes). A `ConditionalOperationQueue` makes it depend
        /// on its barrier through `addDependency(_:)`, and it runs after the barrier.
        @Test
        func anOperationWithADependencyRemovedUnfinishedRunsAfterTheBarrierOfAConditionalOperationQueue()
            async
        {
            let order = Recorder()
            let removed = BlockOperation {}
            let operation = Self.recording(in: order)
            operation.addDependency(removed)
            #expect(!operation.isReady, "admitted: Foundation counts the dependency")
            operation.removeDependency(removed)
            #expect(operation.isReady, "it reads its dependencies itself")
            await Self.expectRunsAfterABarrier(operation, recordedIn: order, on: ConditionalOperationQueue())
        }

        /// The first `isReady` read, before Foundation takes its lock, hands over the dependencies
        /// added before the operation was enqueued; then Foundation adds the barrier and reads it
        /// again under its lock, where the answer is `false` (one of them has not finished).
        @Test func anOperationWithDeferredDependenciesAddedToAPlainQueueWhileABarrierWaitsRuns() async {
            let queue = OperationQueue()
            let finished = BlockOperation {}
            finished.start()
            let unfinished = BlockOperation {}
            let operation = ProbeOperation()
            operation.addDependency(finished)
            operation.addDependency(unfinished)
            let done = completionLatch([operation])
            guard let blocker = await Self.addWhileABarrierWaits([operation], to: queue) else { return }
            blocker.signal()
            queue.addOperation(unfinished)
            #expect(await done.wait(seconds: 10))
        }

        /// An operation recording "operation" in `order` as it executes.
        private static func recording(in order: Recorder) -> ClosureOperation<Void> {
            ClosureOperation<Void> { operation in
                order.record("operation")
                operation.finish()
            }
        }

        /// Adds `operation` to `queue` while a barrier block waits (recording "barrier" in
        /// `order`), and expects it to run after the barrier.
        private static func expectRunsAfterABarrier(
            _ operation: Foundation.Operation, recordedIn order: Recorder, on queue: OperationQueue
        ) async {
            let done = completionLatch([operation])
            guard
                let blocker = await addWhileABarrierWaits(
                    [operation], to: queue, barrier: { order.record("barrier") })
            else { return }
            #expect(!operation.isFinished, "it waits for the barrier")
            blocker.signal()
            #expect(await done.wait(seconds: 10))
            #expect(order.all == ["barrier", "operation"])
        }

        /// Holds `queue` with a blocked operation and `barrier` behind it, then adds `operations`
        /// from other threads. Returns what lets the blocked operation go once every add returned;
        /// `nil`, the issue recorded and the operation let go, if one hung for 5 seconds.
        private static func addWhileABarrierWaits(
            _ operations: [Foundation.Operation], to queue: OperationQueue,
            barrier: @escaping @Sendable () -> Void = {}
        ) async -> DispatchSemaphore? {
            let blocker = DispatchSemaphore(value: 0)
            queue.addOperation { _ = blocker.wait(timeout: .now() + 10) }
            queue.addBarrierBlock(barrier)
            let added = Latch(count: operations.count)
            for operation in operations {
                DispatchQueue.global().async {
                    queue.addOperation(operation)
                    added.countDown()
                }
            }
            guard await added.wait(seconds: 5) else {
                Issue.record("adding it hung: Foundation scheduled under its own lock")
                blocker.signal()
                return nil
            }
            return blocker
        }
    }
}
