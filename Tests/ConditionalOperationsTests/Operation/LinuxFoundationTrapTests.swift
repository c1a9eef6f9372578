import ConditionalOperations
import ConditionalOperationsTesting
import Foundation
import Testing

extension ConditionalOperationsTests {
    /// Regression tests for swift-corelibs-foundation's traps (LinuxNotes in the documentation).
    @Suite struct LinuxFoundationTrapTests {
        /// The rounds run one after another: five plain queues of 10k operations at once, each pass
        /// of Foundation's scheduler walking all of its queue, once took ten minutes under
        /// ThreadSanitizer (every round still progressing, none stuck).
        @Test(.serialized, arguments: 1...5)
        func asyncConditionsOnAPlainQueueNeverLoseAReadinessFlip(round: Int) async {
            // The queue caches isReady; a flip it misses leaves an operation queued forever.
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = round.isMultiple(of: 2) ? 4 : -1
            let operations = (0..<10_000).map { _ in
                let operation = ProbeOperation()
                operation.addCondition(LaterCondition())
                return operation
            }
            let done = completionLatch(operations)
            queue.add(operations)
            let finished = await done.wait(seconds: 60)
            #expect(finished, "\(done.remaining) operations never finished")
            #expect(operations.allSatisfy { $0.executions.current == 1 })
        }

        @Test func aCancelledOperationLeavesTheQueue() async {
            // An isReady that ignores cancellation keeps a cancelled operation queued forever.
            let never = BlockOperation {}
            let operation = ProbeOperation()
            operation.addDependency(never)
            operation.addCondition(ManualCondition())
            let queue = OperationQueue()
            let done = completionLatch([operation])
            queue.addOperation(operation)
            operation.cancel()
            #expect(await done.wait())
            #expect(queue.operationCount == 0 || operation.isFinished)
        }

        @Test func slowConditionsHoldNoQueueSlot() async throws {
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 1
            let slow = ManualCondition()
            let waiting = ProbeOperation()
            waiting.addCondition(slow)
            let unrelated = ProbeOperation()
            let unrelatedDone = completionLatch([unrelated])
            queue.addOperation(waiting)
            try await slow.waitUntilEvaluated(timeout: .seconds(20))
            queue.addOperation(unrelated)
            #expect(await unrelatedDone.wait(), "an unrelated operation runs while a condition is pending")
            #expect(waiting.state == .evaluatingConditions)
            let waitingDone = completionLatch([waiting])
            slow.answer(.satisfied)
            #expect(await waitingDone.wait())
            #expect(waiting.executions.current == 1)
        }

        @Test func dependenciesOnOtherQueuesAndPlainOperationsAreHonoured() async {
            let first = OperationQueue()
            let second = OperationQueue()
            let plain = BlockOperation {}
            let upstream = ProbeOperation(.finishLater)
            let operation = ProbeOperation()
            operation.addCondition(LaterCondition())
            operation.addDependency(plain)
            operation.addDependency(upstream)
            let done = completionLatch([operation])
            second.addOperation(operation)
            first.add([plain, upstream])
            #expect(await done.wait())
            #expect(plain.isFinished && upstream.isFinished)
            #expect(operation.executions.current == 1)
        }
    }
}
