import Foundation
import Testing

@testable import ConditionalOperations

/// Foundation's queue scenarios, continued: concurrency limits, waiting, queue lifetime and barriers,
/// kinds of operations, and the queue's own properties.
extension ConditionalOperationsTests.FoundationQueueScenarioTests {
    // MARK: Concurrency limits

    /// The serial queue of test_CancelOneOperation and test_OperationOrder, counted.
    @Test func maxConcurrentOperationCountOneRunsOneAtATime() async {
        let queue = ConditionalOperationQueue()
        queue.maxConcurrentOperationCount = 1
        let gate = Gate()  // open: each operation finishes a moment later, from another thread
        let operations = (0..<60).map { index -> Foundation.Operation in
            switch index % 3 {
            case 0:
                BlockOperation {
                    gate.occupancy.enter()
                    gate.occupancy.leave()
                }
            case 1: GatedOperation(gate)
            default: GatedPlainOperation(gate)
            }
        }
        let done = completionLatch(operations)
        queue.add(operations)
        #expect(await done.wait())
        #expect(gate.occupancy.peak == 1)
    }

    /// Three operations execute at once on a queue limited to three, and no fourth joins them.
    @Test func maxConcurrentOperationCountCapsTheNumberRunningAtOnce() async {
        let queue = ConditionalOperationQueue()
        queue.maxConcurrentOperationCount = 3
        let gate = Gate(holds: 1, starts: 3)
        let operations = (0..<12).map { index -> Foundation.Operation in
            index.isMultiple(of: 2) ? GatedOperation(gate) : GatedPlainOperation(gate)
        }
        let done = completionLatch(operations)
        queue.add(operations)
        #expect(await gate.started.wait(), "three execute at once")
        #expect(!(await gate.overflow.wait(seconds: 0.5)), "no fourth starts while three execute")
        #expect(gate.occupancy.peak == 3)
        gate.open()
        #expect(await done.wait())
        #expect(gate.occupancy.peak == 3)
    }

    /// test_ConcurrentOperations: the first operation finishes only once the second ran.
    @Test func twoOperationsRunTogetherWithALimitOfTwo() async {
        let queue = ConditionalOperationQueue()
        queue.maxConcurrentOperationCount = 2
        for round in 0..<3 {
            let gate = Gate(holds: 1)
            let waiting = GatedOperation(gate)
            let second = BlockOperation { gate.open() }
            let done = completionLatch([waiting, second])
            queue.addOperation(waiting)
            queue.addOperation(second)
            #expect(await done.wait(seconds: 10), "round \(round)")
        }
    }

    /// test_ConcurrentOperationsWithDependenciesAndCompletions
    @Test func completionBlockRunsOnceTheOperationFinished() async {
        let queue = ConditionalOperationQueue()
        queue.maxConcurrentOperationCount = 2
        for round in 0..<3 {
            let gate = Gate(holds: 2)
            let first = GatedOperation(gate)  // finishes once both others ran
            let sawFinished = Locked(false)
            let completed = Latch()
            first.completionBlock = { [weak first] in
                sawFinished.withLock { $0 = first?.isFinished == true }
                completed.countDown()
            }
            let other = ClosureOperation<Void> { operation in
                gate.open()
                operation.finish(returning: ())
            }
            Self.addWithoutWaiting([first, other], to: queue)
            queue.addOperation { gate.open() }
            #expect(await completed.wait(seconds: 10), "round \(round)")
            #expect(sawFinished.withLock { $0 }, "round \(round)")
        }
    }

    // MARK: Waiting

    /// test_WaitUntilFinished: the queue's operations wait for a dependency on another queue.
    @Test func waitUntilAllOperationsAreFinishedWaitsForEveryOperation() async {
        let queue = ConditionalOperationQueue()
        let other = ConditionalOperationQueue()
        let gate = Gate(holds: 1)
        let upstream = GatedOperation(gate)
        let order = Recorder()
        let operations = [Self.block("plain", into: order), Self.step("conditional", into: order)]
        for operation in operations { operation.addDependency(upstream) }
        queue.add(operations)
        other.addOperation(upstream)
        let sawFinished = Locked(false)
        let returned = Self.blockingCall {
            queue.waitUntilAllOperationsAreFinished()
            sawFinished.withLock { $0 = operations.allSatisfy(\.isFinished) }
        }
        #expect(await gate.started.wait())
        #expect(!(await returned.wait(seconds: 0.3)), "its operations wait for their dependency")
        gate.open()
        #expect(await returned.wait())
        #expect(sawFinished.withLock { $0 })
        #expect(queue.unfinishedOperationCount == 0)
    }

    /// Not in Foundation's file (test_OperationPriorities relies on it).
    @Test func addOperationsWaitUntilFinishedWaits() async {
        let queue = ConditionalOperationQueue()
        let gate = Gate(holds: 1, starts: 2)
        let order = Recorder()
        let dependent = Self.step("dependent", into: order)
        let operations: [Foundation.Operation] = [
            GatedOperation(gate), GatedPlainOperation(gate), Self.block("plain", into: order), dependent,
        ]
        dependent.addDependency(operations[0])
        let sawFinished = Locked(false)
        let returned = Self.blockingCall {
            queue.addOperations(operations, waitUntilFinished: true)
            sawFinished.withLock { $0 = operations.allSatisfy(\.isFinished) }
        }
        #expect(await gate.started.wait())
        #expect(!(await returned.wait(seconds: 0.3)), "two operations are still executing")
        gate.open()
        #expect(await returned.wait())
        #expect(sawFinished.withLock { $0 })
        #expect(Set(order.all) == ["plain", "dependent"])
    }

    /// test_OperationWaitUntilFinished
    @Test func operationWaitUntilFinishedReturnsOnceItFinished() async {
        let queue = ConditionalOperationQueue()
        let gate = Gate(holds: 1, starts: 2)
        let operations: [Foundation.Operation] = [GatedOperation(gate), GatedPlainOperation(gate)]
        queue.add(operations)
        let sawFinished = Locked(false)
        let returned = Self.blockingCall {
            for operation in operations { operation.waitUntilFinished() }
            sawFinished.withLock { $0 = operations.allSatisfy(\.isFinished) }
        }
        #expect(await gate.started.wait())
        #expect(!(await returned.wait(seconds: 0.3)), "both are still executing")
        gate.open()
        #expect(await returned.wait())
        #expect(sawFinished.withLock { $0 })
    }

    // MARK: Queue lifetime and barriers

    /// test_Deadlock: the queue is released at once.
    @Test func releasedQueueStillRunsItsOperationsInDependencyOrder() async {
        let order = Recorder()
        let first = Self.step("first", into: order)
        let second = Self.block("second", into: order)
        first.addDependency(second)
        let done = completionLatch([first, second])
        do {
            let queue = ConditionalOperationQueue()
            queue.maxConcurrentOperationCount = 1
            queue.add([first, second])
        }
        #expect(await done.wait())
        #expect(order.all == ["second", "first"])
    }

    /// test_Lifecycle
    @Test func releasedQueueIsFreedOnceItsOperationsFinished() async {
        let gate = Gate(holds: 1)
        let running = GatedPlainOperation(gate)
        let dependent = ClosureOperation<Void> { $0.finish(returning: ()) }
        dependent.addDependency(running)
        let done = completionLatch([running, dependent])
        let freed: Latch
        do {
            let queue = ObservedQueue()
            freed = queue.freed
            queue.add([dependent, running])
        }
        #expect(await gate.started.wait())
        running.cancel()  // a plain operation carries on: its cancel is only a flag
        gate.open()
        #expect(await done.wait())
        #expect(await freed.wait(), "the queue is deallocated once its operations finished")
    }

    /// Not in Foundation's file; Foundation's barrier contract.
    @Test func barrierBlockRunsAfterEarlierOperationsAndBeforeLaterOnes() async {
        let queue = ConditionalOperationQueue()
        let gate = Gate(holds: 1)
        let order = Recorder()
        let running = GatedOperation(gate)
        let held = Self.step("earlier held", into: order)
        held.addDependency(running)
        let earlier = [running, Self.block("earlier plain", into: order), held]
        queue.add(earlier)
        let sawEarlierFinished = Locked(false)
        queue.addBarrierBlock {
            sawEarlierFinished.withLock { $0 = earlier.allSatisfy(\.isFinished) }
            order.record("barrier")
        }
        let later = [Self.block("later plain", into: order), Self.step("later conditional", into: order)]
        let done = completionLatch(later)
        queue.add(later)
        #expect(await gate.started.wait())
        #expect(!order.all.contains("barrier"))
        gate.open()
        #expect(await done.wait())
        #expect(sawEarlierFinished.withLock { $0 })
        #expect(order.all.firstIndex(of: "barrier") == 2)
        #expect(Set(order.all.suffix(2)) == ["later plain", "later conditional"])
    }

    // MARK: Kinds of operations

    /// test_isExecutingWorks and test_SyncOperationWithoutAQueue, on the queue.
    @Test func isExecutingIsTrueOnlyWhileTheOperationRuns() async {
        final class SyncOperation: Foundation.Operation, @unchecked Sendable {  // stored state: a let
            let sawExecuting = Locked<Bool?>(nil)
            override func main() { sawExecuting.withLock { $0 = isExecuting } }
        }
        let sync = SyncOperation()
        let block = BlockOperation()
        let blockSawExecuting = Locked<Bool?>(nil)
        block.addExecutionBlock { [weak block] in blockSawExecuting.withLock { $0 = block?.isExecuting } }
        let conditionalSawExecuting = Locked<Bool?>(nil)
        let conditional = ClosureOperation<Void> { operation in
            conditionalSawExecuting.withLock { $0 = operation.isExecuting }
            operation.finish(returning: ())
        }
        let operations: [Foundation.Operation] = [sync, block, conditional]
        #expect(operations.allSatisfy { !$0.isExecuting && !$0.isFinished })
        let queue = ConditionalOperationQueue()
        queue.add(operations)
        #expect(await Self.returns { queue.waitUntilAllOperationsAreFinished() })
        #expect(sync.sawExecuting.withLock { $0 } == true)
        #expect(blockSawExecuting.withLock { $0 } == true)
        #expect(conditionalSawExecuting.withLock { $0 } == true)
        #expect(operations.allSatisfy { !$0.isExecuting && $0.isFinished })
    }

    /// test_AsyncOperation, on the queue: executing from `start()` until it says it finished.
    @Test func asynchronousOperationExecutesUntilItFinishes() async {
        let queue = ConditionalOperationQueue()
        let gate = Gate(holds: 1, starts: 2)
        let operations: [Foundation.Operation] = [GatedPlainOperation(gate), GatedOperation(gate)]
        #expect(operations.allSatisfy { !$0.isExecuting && !$0.isFinished })
        let done = completionLatch(operations)
        queue.add(operations)
        #expect(await gate.started.wait())
        #expect(operations.allSatisfy { $0.isExecuting && !$0.isFinished })
        #expect(queue.unfinishedOperationCount == 2)
        gate.open()
        #expect(await done.wait())
        #expect(operations.allSatisfy { !$0.isExecuting && $0.isFinished })
    }

    /// test_BlockOperationAddExecutionBlock
    @Test func blockOperationExecutionBlocksAllRun() async {
        let ran = Recorder()
        let operation = BlockOperation { ran.record("first") }
        operation.addExecutionBlock { ran.record("second") }
        #expect(operation.executionBlocks.count == 2)
        let done = completionLatch([operation])
        ConditionalOperationQueue().addOperation(operation)
        #expect(await done.wait())
        #expect(ran.all.sorted() == ["first", "second"])
    }

    // MARK: The queue's properties

    @Test func qualityOfServiceIsKept() async {
        let queue = ConditionalOperationQueue()
        for quality in [QualityOfService.utility, .userInitiated, .background] {
            queue.qualityOfService = quality
            #expect(queue.qualityOfService == quality)
        }
        let operation = BlockOperation {}
        let ran = completionLatch([operation])
        queue.addOperation(operation)
        #expect(await ran.wait(), "a queue of background quality still runs its operations")
    }

    @Test func nameIsKept() {
        let queue = ConditionalOperationQueue()
        queue.name = "scenario queue"
        #expect(queue.name == "scenario queue")
        queue.name = "renamed"
        #expect(queue.name == "renamed")
    }
}
