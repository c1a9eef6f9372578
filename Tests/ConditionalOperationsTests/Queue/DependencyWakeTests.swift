import ConditionalOperationsTesting
import Foundation
import Testing

@testable import ConditionalOperations

/// An operation whose `isReady` only reads: Foundation reading it moves nothing on, as Apple's
/// Foundation, which promises a dependent only KVO, leaves it unread for an operation in none of
/// its queues.
final class UnqueriedOperation: ConditionalOperation, @unchecked Sendable {  // stored state: lets only
    override class var readinessQueriesAdvance: Bool { false }

    let executed: Recorder?

    init(_ name: String = "", recordingIn executed: Recorder? = nil) {
        self.executed = executed
        super.init()
        self.name = name
    }

    override func execute() {
        executed?.record(name ?? "")
        finish()
    }
}

/// A group whose own `isReady` only reads, as ``UnqueriedOperation``'s.
final class UnqueriedGroup: GroupOperation, @unchecked Sendable {
    override class var readinessQueriesAdvance: Bool { false }
}

extension ConditionalOperationsTests {
    /// No reliance on Foundation reading `isReady` as a dependency finishes: the library wakes an
    /// operation whose last dependency finished itself, on every platform. Each test's operations
    /// answer `isReady` without moving on (``UnqueriedOperation``): without the wake, each hangs.
    @Suite struct DependencyWakeTests {
        @Test func aChainOnAConditionalOperationQueueFinishesInOrder() async {
            let executed = Recorder()
            let chain = (0..<50).map { UnqueriedOperation("\($0)", recordingIn: executed) }
            for (dependent, dependency) in zip(chain.dropFirst(), chain) {
                dependent.addDependency(dependency)
            }
            let done = completionLatch(chain)
            ConditionalOperationQueue().add(chain.reversed())
            #expect(await done.wait())
            #expect(executed.all == (0..<50).map { "\($0)" })
        }

        @Test func aFanInStartsOnceItsLastDependencyFinished() async {
            let executed = Recorder()
            let queue = ConditionalOperationQueue()
            let sources = (0..<20).map { UnqueriedOperation("source \($0)", recordingIn: executed) }
            let sink = UnqueriedOperation("sink", recordingIn: executed)
            for source in sources { sink.addDependency(source) }
            let done = completionLatch([sink])
            queue.addOperation(sink)
            queue.add(sources)
            #expect(await done.wait())
            #expect(executed.all.count == 21 && executed.all.last == "sink")
        }

        /// A plain dependency is watched; one added once the dependent was ready (S9) wakes it too.
        @Test func plainAndLateDependenciesWakeTheirDependent() async {
            let queue = ConditionalOperationQueue()
            let gate = BlockOperation {}
            let plain = BlockOperation {}
            plain.addDependency(gate)
            let dependent = UnqueriedOperation("dependent")
            dependent.addDependency(plain)
            let late = UnqueriedOperation("late")
            late.addCondition(ManualCondition())  // keeps it waiting while the dependent is added
            let done = completionLatch([dependent])
            queue.add([dependent, plain])
            dependent.addDependency(late)
            queue.addOperation(late)
            queue.addOperation(gate)
            await waitUntil { plain.isFinished }
            #expect(!dependent.isFinished, "it waits for the late dependency too")
            late.cancel()
            #expect(await done.wait())
        }

        @Test func aGroupsChildrenThatDependOnSiblingsFinish() async {
            let executed = Recorder()
            let children = (0..<10).map { UnqueriedOperation("child \($0)", recordingIn: executed) }
            for (dependent, dependency) in zip(children.dropFirst(), children) {
                dependent.addDependency(dependency)
            }
            let group = UnqueriedGroup(operations: children.reversed())
            let before = UnqueriedOperation("before")
            group.addDependency(before)
            let done = completionLatch([group])
            ConditionalOperationQueue().add([group, before])
            #expect(await done.wait())
            #expect(executed.all == (0..<10).map { "child \($0)" })
        }

        /// A manual `start()` before the dependencies finished: it runs once they did.
        @Test func aManualStartBeforeItsDependenciesFinishedRunsOnceTheyDid() async {
            let dependency = UnqueriedOperation("dependency")
            let plain = BlockOperation {}
            let operation = UnqueriedOperation("started by hand")
            operation.addDependency(dependency)
            operation.addDependency(plain)
            let done = completionLatch([operation])
            operation.start()
            #expect(!operation.isFinished)
            dependency.start()
            #expect(!operation.isFinished, "it waits for the plain one too")
            OperationQueue().addOperation(plain)
            #expect(await done.wait())
            #expect(!operation.failed && !operation.isCancelled)
        }

        /// A dependency that is cancelled finishes all the same: its dependents go on.
        @Test func aCancelledDependencyWakesItsDependents() async {
            let dependency = UnqueriedOperation("dependency")
            dependency.addCondition(ManualCondition())
            let dependent = UnqueriedOperation("dependent")
            dependent.addDependency(dependency)
            let done = completionLatch([dependent])
            ConditionalOperationQueue().add([dependent, dependency])
            dependency.cancel()
            #expect(await done.wait())
            #expect(dependency.isCancelled && !dependent.isCancelled)
        }

        /// S12: a dependency names a held dependent among its waiters; cancelled, the dependent
        /// takes that back and is let go of, though the dependency never runs.
        @Test func aCancelledDependentIsLetGoOfThoughItsDependencyNeverRuns() async {
            let dependency = ConditionalOperation()  // added nowhere: it never finishes
            let queue = ConditionalOperationQueue()
            weak var released: UnqueriedOperation?
            do {
                let dependent = UnqueriedOperation("dependent")
                dependent.addDependency(dependency)
                released = dependent
                let done = completionLatch([dependent])
                queue.addOperation(dependent)
                dependent.cancel()
                #expect(await done.wait())
            }
            await waitUntil { released == nil }
            #expect(released == nil, "the dependency that never runs holds it no more")
            withExtendedLifetime(dependency) {}
        }
    }
}
