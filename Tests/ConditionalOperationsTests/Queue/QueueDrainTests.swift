import ConditionalOperationsTesting
import Foundation
import Testing

@testable import ConditionalOperations

/// A ConditionalOperationQueue starts its ready operations several to a Dispatch work item: one
/// operation whose `start()` blocks must still not hold back the ones handed out after it, as
/// none does on Foundation's queue.
extension ConditionalOperationsTests {
    @Suite struct QueueDrainTests {
        @Test(arguments: [OperationQueue.defaultMaxConcurrentOperationCount, 2])
        func anOperationBlockedInItsStartDoesNotHoldBackTheOnesAfterIt(limit: Int) async {
            let queue = ConditionalOperationQueue()
            queue.maxConcurrentOperationCount = limit
            let released = DispatchSemaphore(value: 0)
            let sawRelease = Locked(false)
            let blocked = BlockOperation {
                let isReleased = released.wait(timeout: .now() + 10) == .success
                sawRelease.withLock { $0 = isReleased }
            }
            let releasing = BlockOperation { released.signal() }
            let done = completionLatch([blocked, releasing])
            ConditionalOperationQueueBatchTests.addWithoutWaiting([blocked, releasing], to: queue)
            #expect(await done.wait())
            #expect(sawRelease.withLock { $0 })
        }

        /// Many short operations, added one at a time and in batches: every one starts once.
        @Test func everyOperationHandedOutStartsOnce() async {
            let queue = ConditionalOperationQueue()
            let operations = (0..<3_000).map { _ in ProbeOperation() }
            let done = completionLatch(operations)
            for operation in operations.prefix(1_000) { queue.addOperation(operation) }
            ConditionalOperationQueueBatchTests.addWithoutWaiting(
                Array(operations.dropFirst(1_000)), to: queue)
            #expect(await done.wait())
            #expect(operations.allSatisfy { $0.executions.current == 1 })
        }
    }
}

extension ConditionalOperationsTests.QueueDrainTests {
    /// A drainer running on the queue's former `underlyingQueue` starts nothing handed out after
    /// the change: the operations added then run on the new one.
    @Test func anOperationAddedAfterTheUnderlyingQueueChangedRunsOnTheNewOne() async {
        let key = DispatchSpecificKey<String>()
        let former = DispatchQueue(label: "former")
        former.setSpecific(key: key, value: "former")
        let new = DispatchQueue(label: "new")
        new.setSpecific(key: key, value: "new")
        let queue = ConditionalOperationQueue()
        queue.underlyingQueue = former
        let ranOn = Locked<String?>(nil)
        // The new queue is busy until the former's work item running the first operation ended:
        // only a drainer left behind there could start the second before.
        let released = DispatchSemaphore(value: 0)
        new.async { _ = released.wait(timeout: .now() + 10) }
        let second = BlockOperation { ranOn.withLock { $0 = DispatchQueue.getSpecific(key: key) } }
        let first = BlockOperation {
            queue.underlyingQueue = new
            queue.addOperation(second)
            former.async { released.signal() }
        }
        let done = completionLatch([first, second])
        queue.addOperation(first)
        #expect(await done.wait())
        #expect(ranOn.withLock { $0 } == "new")
    }
}
