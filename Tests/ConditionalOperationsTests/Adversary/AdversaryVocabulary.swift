import Foundation

@testable import ConditionalOperations

/// A way an operation's course is ended or disturbed, as an adversarial scenario deals it.
enum AdversaryEnding: Int, CaseIterable, Sendable, CustomStringConvertible {
    case cancel
    case cancelWithError
    case finish
    case finishWithError
    /// The subject's gate condition answers.
    case conditionSatisfied
    case conditionFailed
    case conditionSkipped
    /// A `TimeoutObserver` added before the operation was enqueued (it starts at `didStart`).
    case timeout
    /// `addDeadline(after:)` when the step lands.
    case deadline
    case cancelAll
    case shutdown
    /// The queue suspended, then resumed a moment later.
    case suspendResume
    /// The queue's `maxConcurrentOperationCount` changed.
    case maxConcurrency
    /// The target's `queuePriority` changed.
    case priority

    var description: String {
        switch self {
        case .cancel: "cancel"
        case .cancelWithError: "cancel(with:)"
        case .finish: "finish"
        case .finishWithError: "finish(errors:)"
        case .conditionSatisfied: "condition satisfied"
        case .conditionFailed: "condition failed"
        case .conditionSkipped: "condition skipped"
        case .timeout: "timeout"
        case .deadline: "deadline"
        case .cancelAll: "cancelAllOperations"
        case .shutdown: "shutdown(gracePeriod:)"
        case .suspendResume: "suspend/resume"
        case .maxConcurrency: "maxConcurrentOperationCount"
        case .priority: "queuePriority"
        }
    }

    /// Acts on the queue, so a scenario started by hand can't have it.
    var needsQueue: Bool { [.cancelAll, .shutdown, .suspendResume, .maxConcurrency].contains(self) }

    /// May be aimed at the subject's group instead of the subject.
    var reachesGroup: Bool { [.cancel, .cancelWithError, .timeout, .deadline, .priority].contains(self) }

    /// Lands at a moment a timer or another task picks, so the outcome is a race.
    var isTimed: Bool { [.timeout, .deadline, .shutdown].contains(self) }

    /// Every pair, then every triple, of endings (repetitions included, order not): what the
    /// rounds deal out in turn, so that consecutive rounds cover all of them.
    static let combinations: [[AdversaryEnding]] = {
        let all = AdversaryEnding.allCases
        var pairs: [[AdversaryEnding]] = []
        var triples: [[AdversaryEnding]] = []
        for first in all.indices {
            for second in first..<all.count {
                pairs.append([all[first], all[second]])
                for third in second..<all.count { triples.append([all[first], all[second], all[third]]) }
            }
        }
        return pairs + triples
    }()
}

/// Where the subject is when the endings land.
enum AdversaryPhase: Int, CaseIterable, Comparable, Sendable, CustomStringConvertible {
    case beforeEnqueue
    case waitingForDependency
    case evaluatingConditions
    case waitingForCategory
    /// Ready, waiting for a queue slot: a suspended queue, a width of 1 taken, or (started by
    /// hand) not started yet.
    case waitingForSlot
    case executing
    /// Inside its `finished(errors:)` hook.
    case finishing
    case finished

    static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    var description: String {
        switch self {
        case .beforeEnqueue: "beforeEnqueue"
        case .waitingForDependency: "waitingForDependency"
        case .evaluatingConditions: "evaluatingConditions"
        case .waitingForCategory: "waitingForCategory"
        case .waitingForSlot: "waitingForSlot"
        case .executing: "executing"
        case .finishing: "finishing"
        case .finished: "finished"
        }
    }
}

/// What runs the scenario's top operation.
enum AdversaryQueueKind: Int, CaseIterable, Sendable, CustomStringConvertible {
    case plain
    case conditional
    case byHand

    var description: String {
        switch self {
        case .plain: "OperationQueue"
        case .conditional: "ConditionalOperationQueue"
        case .byHand: "start() by hand"
        }
    }

    func allows(_ ending: AdversaryEnding) -> Bool {
        switch self {
        case .plain: ending != .shutdown
        case .conditional: true
        case .byHand: !ending.needsQueue
        }
    }
}

/// One ending of a scenario, with its parameter: a timer's interval or a suspension's length in
/// µs, or the index of the new width or priority.
struct AdversaryStep: Equatable, Sendable, CustomStringConvertible {
    let ending: AdversaryEnding
    let onGroup: Bool
    let parameter: Int

    var description: String { "\(ending)\(onGroup ? " on the group" : "")(\(parameter))" }

    static let widths = [1, 2, OperationQueue.defaultMaxConcurrentOperationCount]
    static let priorities: [Foundation.Operation.QueuePriority] = [.veryLow, .low, .normal, .high, .veryHigh]
}

/// One subject, the phase it is in and the endings that land on it there.
struct AdversaryScenario: Equatable, Sendable, CustomStringConvertible {
    let index: Int
    let kind: AdversaryQueueKind
    let phase: AdversaryPhase
    /// The subject is a child of a `GroupOperation`, which is what the queue runs.
    let grouped: Bool
    /// The steps race from threads of their own; otherwise one thread takes them in order.
    let racing: Bool
    /// In `waitingForSlot` on a queue: the queue is suspended (else its only slot is taken).
    let slotBySuspension: Bool
    /// The subject also needs a category of its own (nobody else holds it).
    let hasCategory: Bool
    /// Threads reading every public member meanwhile.
    let readers: Int
    let steps: [AdversaryStep]

    var description: String {
        "scenario \(index): \(kind), \(phase)\(grouped ? ", in a group" : "")"
            + "\(racing ? ", racing" : ", in order")\(readers > 0 ? ", \(readers) readers" : "")"
            + "\(hasCategory ? ", with a category" : "")\(phase == .waitingForSlot && slotBySuspension ? ", suspended" : ""): "
            + steps.map(\.description).joined(separator: ", ")
    }

    /// Every step lands on the subject at a moment the harness knows, so the outcome is exact.
    var isDeterministic: Bool { !racing && !steps.contains { $0.ending.isTimed } }
}

/// The scenarios of one round, from its seed alone: the seed's low 16 bits are the round's
/// place in the run, which picks the combinations of endings it deals (``AdversaryEnding/combinations``
/// in turn); everything else is drawn from the seed.
struct AdversaryEndingsPlan: Equatable, Sendable {
    let seed: UInt64
    let scenarios: [AdversaryScenario]

    /// - Parameter readers: the reader threads of a scenario; `nil` draws 0 or 2.
    init(seed: UInt64, count: Int, readers: Int? = nil, combinations: [[AdversaryEnding]]? = nil) {
        self.seed = seed
        var random = SplitMix64(seed: seed)
        let cursor = Int(seed & 0xFFFF) * count
        let dealt = combinations ?? AdversaryEnding.combinations
        scenarios = (0..<count).map { index in
            let place = cursor + index
            var endings = dealt[place % dealt.count]
            // Fisher-Yates, with the seed's numbers: the order in which the steps land.
            for position in stride(from: endings.count - 1, to: 0, by: -1) {
                endings.swapAt(position, random.int(0...position))
            }
            let phase = AdversaryPhase.allCases[place % AdversaryPhase.allCases.count]
            let kinds = AdversaryQueueKind.allCases.filter { kind in endings.allSatisfy(kind.allows) }
            let kind = kinds[random.int(0..<kinds.count)]
            let grouped = random.chance(35)
            let steps = endings.map { ending in
                AdversaryStep(
                    ending: ending, onGroup: grouped && ending.reachesGroup && random.chance(40),
                    parameter: Self.parameter(for: ending, &random))
            }
            return AdversaryScenario(
                index: index, kind: kind, phase: phase, grouped: grouped, racing: random.chance(50),
                slotBySuspension: random.chance(50), hasCategory: random.chance(40),
                readers: readers ?? (random.chance(12) ? 2 : 0), steps: steps)
        }
    }

    private static func parameter(for ending: AdversaryEnding, _ random: inout SplitMix64) -> Int {
        switch ending {
        case .timeout: random.pick([0, 300, 2_000])
        case .deadline: random.pick([0, 100, 1_000, 3_000])
        case .shutdown: random.pick([0, 500, 2_000])
        case .suspendResume: random.pick([0, 100, 500])
        case .maxConcurrency: random.int(0..<AdversaryStep.widths.count)
        case .priority: random.int(0..<AdversaryStep.priorities.count)
        default: 0
        }
    }
}
