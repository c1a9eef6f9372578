import ConditionalOperationsTesting
import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests {
    /// S9: a dependency added to an operation that is ready but not started yet (its queue is
    /// suspended, or has no free slot) is honoured, as Foundation honours it for a `BlockOperation`:
    /// the operation starts only once that dependency finished (issue 34, finding 9). And a
    /// `queuePriority` changed while an operation waits for a slot counts, as on Foundation's queue.
    @Suite struct LateDependencyTests {
        static func queue(conditional: Bool) -> OperationQueue {
            let queue: OperationQueue = conditional ? ConditionalOperationQueue() : OperationQueue()
            queue.maxConcurrentOperationCount = 1
            queue.isSuspended = true
            return queue
        }

        /// An operation that records its label when it executes.
        static func recording(_ label: String, in order: Recorder) -> ProbeOperation {
            let operation = ProbeOperation()
            operation.addObserver(BlockObserver(didStart: { _ in order.record(label) }))
            return operation
        }

        /// `queue` (running one at a time, first come first served) starts `operation` before
        /// anything added after it, if it can start at all: once a sentinel added after it has
        /// finished, an operation still not executed was held back.
        static func runSentinel(on queue: OperationQueue) async -> Bool {
            let sentinel = BlockOperation {}
            let done = completionLatch([sentinel])
            queue.addOperation(sentinel)
            return await done.wait()
        }

        @Test(arguments: [false, true])
        func S9_aDependencyAddedToAReadyOperationIsWaitedFor(conditional: Bool) async {
            let order = Recorder()
            let queue = Self.queue(conditional: conditional)
            let operation = Self.recording("operation", in: order)
            queue.addOperation(operation)
            await waitUntil { operation.state == .ready }
            let dependency = BlockOperation { order.record("dependency") }
            operation.addDependency(dependency)
            queue.isSuspended = false
            #expect(await Self.runSentinel(on: queue))
            #expect(operation.executions.current == 0, "it ran before its dependency finished")
            #expect(!operation.isReady)
            #expect(
                operation.diagnosis.description.hasSuffix(
                    "(ready): waiting for 1 dependency: BlockOperation (ready)"))
            let done = completionLatch([operation])
            queue.addOperation(dependency)
            #expect(await done.wait())
            #expect(order.all == ["dependency", "operation"])
        }

        /// Added while its conditions are evaluated: it becomes ready, and still waits.
        @Test(arguments: [false, true])
        func S9_aDependencyAddedWhileConditionsAreEvaluatedIsWaitedFor(conditional: Bool) async throws {
            let order = Recorder()
            let queue = Self.queue(conditional: conditional)
            queue.isSuspended = false
            let condition = ManualCondition()
            let operation = Self.recording("operation", in: order)
            operation.addCondition(condition)
            queue.addOperation(operation)
            try await condition.waitUntilEvaluated(timeout: .seconds(20))
            let dependency = BlockOperation { order.record("dependency") }
            operation.addDependency(dependency)
            condition.answer(.satisfied)
            await waitUntil { operation.state == .ready }
            #expect(await Self.runSentinel(on: queue))
            #expect(operation.executions.current == 0, "it ran before its dependency finished")
            let done = completionLatch([operation])
            queue.addOperation(dependency)
            #expect(await done.wait())
            #expect(order.all == ["dependency", "operation"])
        }

        /// As in Foundation, a cancelled operation waits for no dependency: it finishes.
        @Test(arguments: [false, true])
        func S9_aCancelledOperationWaitsForNoDependencyAddedLate(conditional: Bool) async {
            let queue = Self.queue(conditional: conditional)
            let operation = ProbeOperation()
            queue.addOperation(operation)
            await waitUntil { operation.state == .ready }
            operation.addDependency(BlockOperation {})  // never run
            queue.isSuspended = false
            #expect(await Self.runSentinel(on: queue))
            let done = completionLatch([operation])
            operation.cancel()
            #expect(await done.wait())
            #expect(operation.executions.current == 0)
        }

        /// Started by hand once ready, it executes once the dependency added since finished.
        @Test func S9_aHandStartedOperationWaitsForADependencyAddedLate() async {
            let operation = ProbeOperation()
            #expect(operation.isReady)  // admitted: ready
            let dependency = BlockOperation {}
            operation.addDependency(dependency)
            #expect(!operation.isReady)
            let done = completionLatch([operation])
            operation.start()
            #expect(operation.executions.current == 0)
            dependency.start()
            #expect(await done.wait())
            #expect(operation.executions.current == 1)
        }

        @Test(arguments: [false, true])
        func aQueuePriorityChangedWhileWaitingForASlotCounts(conditional: Bool) async {
            let order = Recorder()
            let queue = Self.queue(conditional: conditional)
            let operations = ["a", "b", "c"].map { Self.recording($0, in: order) }
            queue.add(operations)
            await waitUntil { operations.allSatisfy { $0.state == .ready } }
            operations[0].queuePriority = .veryLow
            operations[2].queuePriority = .veryHigh
            let done = completionLatch(operations)
            queue.isSuspended = false
            #expect(await done.wait())
            #expect(order.all == ["c", "b", "a"])
        }
    }
}
