import Foundation
import Testing

@testable import ConditionalOperations
@testable import ConditionalOperationsMachines

extension ConditionalOperationsTests.OperationStateMachineTableTests {
    // S27, event by event: the key, the join, the joined operation's end, and a cancel meanwhile.

    /// A machine given a key, added to `owner` and joining.
    static func joining(on owner: ConditionalOperationQueue) -> Machine {
        var machine = Machine()
        #expect(machine.setCoalescingKey() == .set)
        #expect(machine.enqueue(on: owner, dependenciesFinished: true) == .coalesce)
        #expect(machine.join(on: owner) == .joined(deferred: []))
        return machine
    }

    @Test(arguments: [
        (Given.initialized, Machine.SetCoalescingKeyAction.set),
        (.pendingStarted, .misuse),
        // Moved on by `isReady` queries, not added yet: the queue reads the key when it adds it.
        (.evaluating, .set),
        (.ready, .set),
        (.executing, .misuse),
        (.finished, .misuse),
    ])
    func S27_setCoalescingKey(given: Given, action: Machine.SetCoalescingKeyAction) {
        var machine = Self.machine(given)
        #expect(machine.setCoalescingKey() == action)
    }

    @Test func S27_aKeyMakesTheQueueLookForAnOperationToJoinOnce() {
        var machine = Machine()
        #expect(machine.enqueue(on: ConditionalOperationQueue(), dependenciesFinished: true) == .ready)
        var keyed = Machine()
        _ = keyed.setCoalescingKey()
        let owner = ConditionalOperationQueue()
        #expect(keyed.enqueue(on: owner, dependenciesFinished: true) == .coalesce)
        #expect(keyed.enqueue(on: owner, dependenciesFinished: true, keyLookedUp: true) == .ready)
    }

    @Test func S27_joinWaitsUntilTheJoinedOperationFinishedThenFinishesWithoutExecuting() {
        let owner = ConditionalOperationQueue()
        var machine = Self.joining(on: owner)
        #expect(Self.describe(machine.phase) == "joining" && machine.state == .pending)
        #expect(machine.queryReadiness(dependenciesFinished: true, context: .query) == .answer(false, []))
        let action = machine.joinedFinished(errors: [TestError(1)], cancelled: false, skipped: false)
        #expect(action == .adopt(.handOver(to: owner)))
        #expect(Self.describe(machine.phase) == "ready(joined)")
        guard case .launched = machine.start() else {
            Issue.record("not launched: \(machine.phase)")
            return
        }
        #expect(Self.describe(machine.phase) == "finishing(joined)")
        #expect(testErrorIDs(machine.reportedErrors) == [1] && !machine.isCancelled)
    }

    @Test func S27_aCancelledOrSkippedJoinedOperationEndsItsJoinerTheSameWay() {
        let owner = ConditionalOperationQueue()
        var cancelled = Self.joining(on: owner)
        #expect(
            cancelled.joinedFinished(errors: [], cancelled: true, skipped: false)
                == .adopt([.handOver(to: owner), .deliver]))
        #expect(cancelled.isCancelled)
        var skipped = Self.joining(on: owner)
        _ = skipped.joinedFinished(errors: [], cancelled: false, skipped: true)
        #expect(Self.describe(skipped.phase) == "ready(skipped)")
    }

    @Test func S27_aJoinerCancelledFirstIgnoresTheJoinedOperationsEnd() {
        let owner = ConditionalOperationQueue()
        var machine = Self.joining(on: owner)
        #expect(machine.cancel(finishesWhenCancelled: true) == .cancelled([.handOver(to: owner), .deliver]))
        #expect(machine.joinedFinished(errors: [TestError(2)], cancelled: false, skipped: false) == .ignored)
        #expect(machine.reportedErrors.isEmpty)
    }

    @Test func S27_anOperationCancelledBeforeItWasAddedDoesNotJoin() {
        var machine = Machine()
        _ = machine.setCoalescingKey()
        _ = machine.cancel(finishesWhenCancelled: true)
        #expect(machine.join(on: ConditionalOperationQueue()) == .enqueue)
        #expect(machine.enqueue(on: ConditionalOperationQueue(), dependenciesFinished: true) == .ready)
    }
}
