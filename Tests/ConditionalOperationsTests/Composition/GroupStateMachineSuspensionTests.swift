import Foundation
import Testing

@testable import ConditionalOperations
@testable import ConditionalOperationsMachines

extension ConditionalOperationsTests.CompositionTests.GroupStateMachineTests {
    /// What the group's queue is to be set to: "suspend", "resume", or "none" to leave it.
    static func describe(_ suspension: Machine.QueueSuspension?) -> String {
        guard let suspension else { return "none" }
        return suspension.isSuspended ? "suspend" : "resume"
    }

    @Test(arguments: [
        (Given.waiting, "none"),
        (.waitingCancelled, "none"),
        (.executing, "suspend"),
        (.executingCancelled, "resume"),
        (.draining, "resume"),
        (.finished, "none"),
    ])
    func S30_setSuspended(given: Given, write: String) {
        var machine = Self.machine(given, first: BlockOperation {})
        let before = machine.stateDescription
        #expect(
            Self.describe(machine.setSuspended(true)) == write, "a cancelled group drains its children (S11)")
        #expect(machine.isSuspended)
        #expect(machine.stateDescription == before, "only the queue follows")
        #expect(Self.describe(machine.setSuspended(false)) == (write == "none" ? "none" : "resume"))
        #expect(!machine.isSuspended)
    }

    @Test(arguments: [false, true])
    func S30_theStartHoldsTheQueueUntilItAddedTheFirstChildren(suspended: Bool) {
        var machine = Machine(queue: ConditionalOperationQueue(), children: [BlockOperation {}])
        _ = machine.setSuspended(suspended)
        _ = machine.start(.finish)
        #expect(Self.describe(machine.setSuspended(suspended)) == "suspend", "the start holds it")
        #expect(Self.describe(machine.started()) == (suspended ? "suspend" : "resume"))
    }

    @Test func S30_aCancelSuspendsTheQueueWhileItCancelsThenResumesItEvenIfTheGroupIsSuspended() {
        var machine = Self.machine(.executing, first: BlockOperation {})
        _ = machine.setSuspended(true)
        guard case .cancel(let children, let suspending) = machine.cancel() else {
            Issue.record("the cancel reached no child")
            return
        }
        #expect(children.count == 1)
        #expect(Self.describe(suspending) == "suspend")
        #expect(Self.describe(machine.setSuspended(false)) == "suspend", "the cancel holds it meanwhile")
        _ = machine.setSuspended(true)
        #expect(Self.describe(machine.childrenCancelled()) == "resume", "cancelled, the children drain")
        #expect(machine.isSuspended, "the group's value is left alone")
    }

    @Test func S30_theCancelOfAGroupThatFinishedMeanwhileWritesNothing() {
        let first = BlockOperation {}
        var machine = Self.machine(.executing, first: first)
        _ = machine.cancel()
        _ = machine.childFinished(first, errors: [])
        #expect(machine.stateDescription == "finished")
        #expect(Self.describe(machine.childrenCancelled()) == "none", "the queue was let go of")
    }

    @Test func S30_aWriterWritesAgainOnlyIfTheSuspensionChangedSinceItsWrite() throws {
        var machine = Self.machine(.executing, first: BlockOperation {})
        let firstWrite = machine.setSuspended(true)
        let first = try #require(firstWrite)
        #expect(Self.describe(machine.queueSuspension(after: first.change)) == "none")
        let secondWrite = machine.setSuspended(false)
        let second = try #require(secondWrite)
        #expect(Self.describe(machine.queueSuspension(after: first.change)) == "resume", "the latest wish")
        #expect(Self.describe(machine.queueSuspension(after: second.change)) == "none")
        _ = machine.setSuspended(false)
        #expect(
            Self.describe(machine.queueSuspension(after: second.change)) == "resume",
            "every change is written, even to the same value: a write between may have landed after")
    }
}
