import Dispatch
import Foundation

@testable import ConditionalOperations

/// Dependencies and priorities changed late: a dependency added to an operation that is ready
/// but not started (a suspended queue, a taken slot, not started by hand yet), one removed from
/// an operation waiting for it, and priorities changed while operations wait for a slot.
enum AdversaryLateChange: Int, CaseIterable, Sendable, CustomStringConvertible {
    /// `addDependency` on an operation that is ready and not started: it waits for it (S9).
    case dependencyAdded
    /// `addDependency` on an operation waiting for another dependency: it waits for both (S9).
    case dependencyAddedWhileWaiting
    /// `removeDependency` of the only unfinished dependency: the operation runs without it
    /// (S9).
    case dependencyRemoved
    /// `queuePriority` changed while waiting for a slot of a serial `ConditionalOperationQueue`
    /// (or a group's): the slot goes to the highest priority first.
    case priorityChanged

    var description: String {
        switch self {
        case .dependencyAdded: "dependency added when ready"
        case .dependencyAddedWhileWaiting: "dependency added while waiting for another"
        case .dependencyRemoved: "dependency removed while waiting"
        case .priorityChanged: "priority changed while waiting for a slot"
        }
    }
}

/// One late change, where it lands.
struct AdversaryLateScenario: Equatable, Sendable, CustomStringConvertible {
    let change: AdversaryLateChange
    let kind: AdversaryQueueKind
    /// Ready and waiting because the queue is suspended (else: its only slot is taken).
    let suspended: Bool
    let grouped: Bool

    var description: String {
        "\(change), \(kind)\(suspended ? ", suspended" : "")\(grouped ? ", in a group" : "")"
    }

    /// Every combination the change allows, in a fixed order.
    static func all(_ change: AdversaryLateChange) -> [AdversaryLateScenario] {
        var all: [AdversaryLateScenario] = []
        for kind in AdversaryQueueKind.allCases {
            for suspended in [false, true] {
                for grouped in [false, true] {
                    // Priorities: Foundation's own queue keeps the order it took at addOperation;
                    // a group's queue is the library's.
                    if change == .priorityChanged && (kind != .conditional && !grouped) { continue }
                    if (kind == .byHand || grouped) && suspended { continue }
                    all.append(
                        AdversaryLateScenario(
                            change: change, kind: kind, suspended: suspended, grouped: grouped))
                }
            }
        }
        return all
    }
}

enum AdversaryLateChangeRound {
    /// Runs every scenario of `change` once, in an order drawn from `seed`.
    static func run(_ change: AdversaryLateChange, seed: UInt64) async -> [String] {
        var random = SplitMix64(seed: seed)
        var scenarios = AdversaryLateScenario.all(change)
        for position in stride(from: scenarios.count - 1, to: 0, by: -1) {
            scenarios.swapAt(position, random.int(0...position))
        }
        var failures: [String] = []
        for scenario in scenarios {
            failures += await run(scenario, label: "\(StressConfiguration.hex(seed))").map {
                "\(scenario): \($0)"
            }
        }
        return failures
    }

    private static func run(_ scenario: AdversaryLateScenario, label: String) async -> [String] {
        let seconds = AdversaryConfiguration.stallSeconds
        var failures: [String] = []
        var references: [StressWeakReference] = []
        do {
            let fixture = AdversaryLateFixture(scenario, label: "\(label) \(scenario)")
            references = fixture.references
            failures += await fixture.run(seconds: seconds)
        }
        let leaked = await references.outlived()
        if !leaked.isEmpty { failures.append("S12: outlived the scenario: \(leaked)") }
        return failures
    }
}
