import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests.AdversaryTests {
    /// Webs of operations whose every reference the test holds is dropped once they are enqueued
    /// (queues, groups, operations, conditions): every operation still finishes exactly once,
    /// and afterwards nothing is left (weak references nil) and no category is held (S1, S12).
    @Test func S1S12_theLastReferencesReleasedMidFlight() async {
        await AdversaryRunner.run("S1S12_theLastReferencesReleasedMidFlight", rounds: 3) { seed in
            await AdversaryReleaseRound.run(
                AdversaryReleasePlan(seed: seed, webs: 6, orphans: false))
        }
    }

    /// Webs where an operation finishes, and is released by its queue, before its dependencies
    /// (cancelled ones, a cancelled fan-in of 65 to 100). Before the fix, about one web in 700
    /// deadlocked: the queue's release could leave swift-corelibs-foundation the last reference,
    /// dropped inside `observeValue(forKeyPath: "isFinished")` of a dependency while holding that
    /// dependency's lock, and the deinit's `removeDependency` took the same lock (S12).
    @Test func S12_aDependentReleasedWhileItsDependencyFinishes() async {
        await AdversaryRunner.run("S12_aDependentReleasedWhileItsDependencyFinishes", rounds: 20) { seed in
            await AdversaryReleaseRound.run(AdversaryReleasePlan(seed: seed, webs: 6, orphans: false))
        }
    }

    /// Operations depending on one of the web's, never enqueued, released from another thread
    /// while that dependency finishes. Before the fix, swift-corelibs-foundation could find such
    /// an operation in the dependency's list of dependents while its deinit ran and retain it
    /// ("deallocated with non-zero retain count"), or read it once freed (S12).
    @Test func S12_aNeverEnqueuedDependentReleasedWhileItsDependencyFinishes() async {
        await AdversaryRunner.run(
            "S12_aNeverEnqueuedDependentReleasedWhileItsDependencyFinishes", rounds: 10
        ) { seed in
            await AdversaryReleaseRound.run(
                AdversaryReleasePlan(seed: seed, webs: 6, dependentsFirst: false, orphans: true))
        }
    }

    /// A root with 65 to 130 dependents and a sink depending on all of them, on both queue kinds,
    /// started by hand and in groups, with cancels, timeouts and priorities flying: every
    /// operation finishes once, and none starts before its dependencies finished (S1, S9).
    @Test func S1S9_fanOutAndFanInAbove64() async {
        await AdversaryRunner.run("S1S9_fanOutAndFanInAbove64", rounds: 2) { seed in
            await AdversaryFanRound.run(AdversaryFanPlan(seed: seed, fans: 4))
        }
    }

    /// A category with a limit of 2 to 4, one unit held by a long holder throughout, operations
    /// needing it on both queue kinds, started by hand and in groups holding it: never more
    /// units than the limit, one child of a group at a time, every operation ends once (S7, S19).
    @Test func S1S7S19_limitsAboveOneUnderALongHolderAndInGroups() async {
        await AdversaryRunner.run("S1S7S19_limitsAboveOneUnderALongHolderAndInGroups", rounds: 3) { seed in
            await AdversaryLimitRound.run(AdversaryLimitPlan(seed: seed, members: 60))
        }
    }

    /// Short operations through a category with a limit of 2 while a long holder keeps a unit:
    /// the cost per operation does not grow with the number of operations that went through
    /// (8 times more operations, at most 4 times the cost each; measured four times before failing:
    /// a busy machine may stall any one run).
    @Test func S19_theCostPerOperationStaysFlatUnderALongHolder() async {
        await AdversaryRunner.run("S19_theCostPerOperationStaysFlatUnderALongHolder", rounds: 1) { seed in
            var last = ""
            for _ in 0..<4 {
                guard let small = await AdversaryLimitRound.costPerOperation(count: 250, seed: seed),
                    let large = await AdversaryLimitRound.costPerOperation(count: 2_000, seed: seed)
                else { return ["a stall"] }
                if large <= small * 4 { return [] }
                last = String(format: "%.1f µs each for 250, %.1f µs each for 2000", small * 1e6, large * 1e6)
            }
            return ["S19: the cost per operation grows with their number: \(last)"]
        }
    }

    /// A dependency added to an operation that is ready and not started (a suspended queue, a
    /// taken slot, not started by hand yet) or waiting for another dependency is waited for;
    /// priorities changed while operations wait for the slot of a serial
    /// `ConditionalOperationQueue` or a group's decide who gets it (S9).
    @Test(arguments: [AdversaryLateChange.dependencyAdded, .dependencyAddedWhileWaiting, .priorityChanged])
    func S9_dependenciesAndPrioritiesChangedLate(change: AdversaryLateChange) async {
        await AdversaryRunner.run("S9_dependenciesAndPrioritiesChangedLate", rounds: 1) { seed in
            await AdversaryLateChangeRound.run(change, seed: seed)
        }
    }

    /// `removeDependency` of the only unfinished dependency lets the operation run, on both
    /// queue kinds and started by hand (S9). Before the fix it waited forever on Linux ("pending:
    /// waiting for 0 dependencies"): swift-corelibs-foundation's `removeDependency` lowers its
    /// count of unfinished dependencies only when the dependency finished and the receiver is
    /// cancelled, so a `BlockOperation` on an `OperationQueue` waits forever there too.
    @Test func S9_aDependencyRemovedWhileWaitingLetsTheOperationRun() async {
        await AdversaryRunner.run("S9_aDependencyRemovedWhileWaitingLetsTheOperationRun", rounds: 1) { seed in
            await AdversaryLateChangeRound.run(.dependencyRemoved, seed: seed)
        }
    }
}
