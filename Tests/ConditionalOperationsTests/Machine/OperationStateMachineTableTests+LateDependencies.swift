import Foundation
import Testing

@testable import ConditionalOperations
@testable import ConditionalOperationsMachines

extension ConditionalOperationsTests.OperationStateMachineTableTests {
    // S9: a dependency added once the operation passed its own, event by event.

    /// `announces`: the followup is `.announceReady`, else nothing.
    @Test(arguments: [
        (Given.initialized, "initialized", false),
        (.pendingStarted, "pending(unasked) [start]", false),
        (.pendingAsking, "pending(askingAfterDependencies)", false),
        (.evaluating, "evaluating(1 unanswered) [late dependency]", false),
        (.requesting, "acquiring [late dependency]", false),
        (.acquiring, "acquiring [late dependency]", false),
        // A plain queue may have stored `true`: it is told to ask again.
        (.ready, "ready [late dependency]", true),
        (.executing, "executing", false),
        (.draining, "draining [start, finish]", false),
        (.finishing, "finishing(executed)", false),
        (.finished, "finished", false),
    ])
    func S9_aDependencyAdded(given: Given, next: String, announces: Bool) {
        var machine = Self.machine(given)
        #expect(machine.dependencyAdded() == (announces ? .announceReady : []))
        #expect(Self.describe(machine.phase) == next)
    }

    /// S9: a dependency removed before it finished. `waits`: the operation still waits for its
    /// dependencies, and reads them itself from then on (Foundation's count keeps the removed one).
    @Test(arguments: [
        (Given.initialized, "initialized [dependency removed]", true, ReadinessHint.countDependencies),
        (.pendingStarted, "pending(unasked) [start, dependency removed]", true, .countDependencies),
        // Past its dependencies, with none added late: it waited for nothing.
        (.evaluating, "evaluating(1 unanswered)", false, .waiting),
        (.acquiring, "acquiring", false, .waiting),
        (.executing, "executing", false, .started),
        (.finished, "finished", false, .finished),
    ])
    func S9_aDependencyRemoved(given: Given, next: String, waits: Bool, hint: ReadinessHint) {
        var machine = Self.machine(given)
        let waited = machine.dependencyRemoved()
        #expect(waited == waits)
        #expect(Self.describe(machine.phase) == next)
        #expect(machine.readinessHint == hint)
    }

    /// Removed from a ready operation waiting for a dependency added late: its start reads the
    /// dependencies themselves; once they finished, the request is gone, and Foundation's count
    /// stays stale (it still counts the dependency removed: read again, it would answer `false`
    /// for good).
    @Test func S9_aLateDependencyRemovedFromAReadyOperation() {
        var machine = Self.readyWithALateDependency(owner: nil)
        let waited = machine.dependencyRemoved()
        #expect(waited)
        #expect(Self.describe(machine.phase) == "ready [late dependency, dependency removed]")
        #expect(machine.readinessHint == .countDependencies)
        _ = machine.queryReadiness(dependenciesFinished: true, stage: .asked, context: .query)
        #expect(Self.describe(machine.phase) == "ready [dependency removed]")
        let waitedAgain = machine.dependencyRemoved()
        #expect(!waitedAgain)
    }

    /// A dependency removed while the operation waited for its own makes Foundation's count stale
    /// for good: past its dependencies the phase keeps that, and a dependency added late is then
    /// waited for by reading the dependencies themselves.
    @Test func S9_aCountMadeStaleBeforeTheDependenciesPassedIsKeptForALateDependency() {
        var machine = Self.machine(.initialized)
        let waits = machine.dependencyRemoved()
        #expect(waits)
        _ = machine.queryReadiness(dependenciesFinished: true, context: .query)
        #expect(Self.describe(machine.phase) == "ready [dependency removed]")
        _ = machine.dependencyAdded()
        #expect(Self.describe(machine.phase) == "ready [late dependency, dependency removed]")
        #expect(machine.readinessHint == .countDependencies)
    }

    /// The one byte a phase past the operation's dependencies carries holds what its callers
    /// asked and the dependency added late apart: each reads back as written, with the others.
    @Test func S9_aPhasePastItsDependenciesKeepsWhatWasAskedApartFromALateDependency() {
        let asked: [Machine.Asked] = [[], .start, .finish, [.start, .finish]]
        let counts: [Machine.DependencyCount] = [.counted, .stale]
        let awaited: [Machine.LateDependency.Awaited] = [.none, .awaited, .startDeclined]
        for asked in asked {
            for count in counts {
                for awaited in awaited {
                    let late = Machine.LateDependency(count, awaited: awaited)
                    var passed = Machine.Passed(asked, late)
                    #expect(passed.asked == asked && passed.late == late)
                    // What every start and readiness query reads, from the byte itself.
                    #expect(
                        passed.awaitsLateDependency == (awaited != .none) && passed.dependencyCount == count)
                    passed.asked.formUnion(.finish)
                    #expect(passed.asked == asked.union(.finish) && passed.late == late)
                    passed.late = .cleared
                    #expect(passed.asked == asked.union(.finish) && passed.late == .cleared)
                }
            }
        }
    }

    /// A ready operation, not started, with a dependency added since; `owner`: its queue's.
    static func readyWithALateDependency(owner: ConditionalOperationQueue?) -> Machine {
        var machine = Self.machine(.initialized)
        if let owner {
            _ = machine.enqueue(on: owner, dependenciesFinished: true)
        } else {
            _ = machine.queryReadiness(dependenciesFinished: true, context: .query)
        }
        _ = machine.dependencyAdded()
        return machine
    }

    @Test func S9_aReadyOperationWithALateDependencyChecksItAtTheStart() {
        var machine = Self.readyWithALateDependency(owner: nil)
        #expect(machine.start() == .checkDependencies)
        #expect(Self.describe(machine.phase) == "ready [late dependency]")
        #expect(machine.settledReadiness() == .readDependencies(.asked))
    }

    @Test(arguments: [false, true])
    func S9_aStartBeforeTheLateDependencyFinishedWaits(owned: Bool) {
        let owner = owned ? ConditionalOperationQueue() : nil
        var machine = Self.readyWithALateDependency(owner: owner)
        let action = machine.startChecked(dependenciesFinished: false)
        if let owner {
            // The queue takes back the slot; the operation is handed over once ready.
            #expect(action == .declined(owner))
            #expect(Self.describe(machine.phase) == "ready [late dependency, start declined]")
        } else {
            // Started by hand: it launches once the dependency finished.
            #expect(action == .waiting)
            #expect(Self.describe(machine.phase) == "ready [start, late dependency]")
        }
        #expect(
            machine.queryReadiness(dependenciesFinished: false, stage: .asked, context: .query)
                == .answer(false, []))
        let expected: Machine.Followup = owner.map { .handOver(to: $0) } ?? .launchLater
        #expect(
            machine.queryReadiness(dependenciesFinished: true, stage: .asked, context: .query)
                == .answer(true, expected))
        // A query cannot launch it: a launch follows on another thread (`launchDeferred`).
        #expect(Self.describe(machine.phase) == (owned ? "ready" : "ready [start]"))
    }

    @Test func S9_aStartOnceTheLateDependencyFinishedLaunches() {
        var machine = Self.readyWithALateDependency(owner: ConditionalOperationQueue())
        #expect(machine.startChecked(dependenciesFinished: true) == .launched(.announceStart))
        #expect(Self.describe(machine.phase) == "executing(execute due)")
    }

    /// As in Foundation, a cancelled operation waits for no dependency; one whose start was
    /// declined is handed back to its queue, which starts it, and it finishes.
    @Test func S9_aCancelLetsGoOfALateDependency() {
        let owner = ConditionalOperationQueue()
        var machine = Self.readyWithALateDependency(owner: owner)
        _ = machine.startChecked(dependenciesFinished: false)
        #expect(machine.cancel(finishesWhenCancelled: true) == .cancelled([.handOver(to: owner), .deliver]))
        #expect(Self.describe(machine.phase) == "ready")
        #expect(machine.start() == .launched([]))
    }
}
