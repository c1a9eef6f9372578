import ConditionalOperationsTesting
import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests {
    /// S9: readiness follows the dependencies an operation has. `removeDependency` of a dependency
    /// that has not finished lets an operation that waited for it alone run, on either queue kind
    /// and started by hand, whether it waited for its dependencies or for one added once ready.
    /// swift-corelibs-foundation keeps counting the removed dependency (a `BlockOperation`
    /// waits forever there); before the fix, so did a `ConditionalOperation`.
    @Suite struct RemovedDependencyTests {
        enum Executor: String, CaseIterable, Sendable {
            case plain, conditional, byHand
        }

        /// Adds `operation` to a queue of `executor`'s kind, or starts it by hand.
        static func run(_ operation: Foundation.Operation, on executor: Executor) -> OperationQueue? {
            switch executor {
            case .plain, .conditional:
                let queue = executor == .plain ? OperationQueue() : ConditionalOperationQueue()
                queue.addOperation(operation)
                return queue
            case .byHand:
                operation.start()
                return nil
            }
        }

        @Test(arguments: Executor.allCases)
        func S9_anOperationWaitingOnlyForARemovedDependencyRuns(executor: Executor) async {
            let operation = ProbeOperation()
            let dependency = BlockOperation {}  // never run
            operation.addDependency(dependency)
            let done = completionLatch([operation])
            let queue = Self.run(operation, on: executor)
            #expect(!operation.isReady)
            operation.removeDependency(dependency)
            #expect(await done.wait(seconds: 10), "still \(operation.diagnosis)")
            #expect(operation.executions.current == 1)
            #expect(operation.dependencies.isEmpty)
            _ = queue
        }

        /// One of two removed: it runs once the other finished, and not before.
        @Test(arguments: Executor.allCases)
        func S9_anOperationRunsOnceTheDependenciesItKeptFinished(executor: Executor) async {
            let order = Recorder()
            let operation = ProbeOperation()
            operation.addObserver(BlockObserver(didStart: { _ in order.record("operation") }))
            let removed = BlockOperation {}  // never run
            let kept = BlockOperation { order.record("kept") }
            operation.addDependency(removed)
            operation.addDependency(kept)
            let done = completionLatch([operation])
            let queue = Self.run(operation, on: executor)
            operation.removeDependency(removed)
            #expect(!operation.isReady)
            #expect(operation.executions.current == 0)
            kept.start()
            #expect(await done.wait(seconds: 10), "still \(operation.diagnosis)")
            #expect(order.all == ["kept", "operation"])
            _ = queue
        }

        /// A dependency added once ready, then removed before it finished: it runs.
        @Test(arguments: [false, true])
        func S9_aDependencyAddedLateThenRemovedIsNotWaitedFor(conditional: Bool) async {
            let queue = LateDependencyTests.queue(conditional: conditional)
            let operation = ProbeOperation()
            queue.addOperation(operation)
            await waitUntil { operation.state == .ready }
            let dependency = BlockOperation {}  // never run
            operation.addDependency(dependency)
            let done = completionLatch([operation])
            queue.isSuspended = false
            #expect(await LateDependencyTests.runSentinel(on: queue))
            #expect(operation.executions.current == 0)
            operation.removeDependency(dependency)
            #expect(await done.wait(seconds: 10), "still \(operation.diagnosis)")
            #expect(operation.executions.current == 1)
        }

        /// Asked whether it is ready before it is queued, then given a dependency and rid of it:
        /// it is ready, and runs once queued. (Removing the dependency left Foundation's count at
        /// one, and the answer after it read that count again: it answered `false` for good.)
        @Test(arguments: Executor.allCases)
        func S9_aDependencyAddedAndRemovedBeforeItIsQueuedIsNotWaitedFor(executor: Executor) async {
            let operation = ProbeOperation()
            #expect(operation.isReady)
            let dependency = BlockOperation {}  // never run
            operation.addDependency(dependency)
            operation.removeDependency(dependency)
            #expect(operation.isReady, "\(operation.diagnosis)")
            let done = completionLatch([operation])
            let queue = Self.run(operation, on: executor)
            #expect(await done.wait(seconds: 10), "still \(operation.diagnosis)")
            #expect(operation.executions.current == 1)
            _ = queue
        }
    }
}
