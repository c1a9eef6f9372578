import Dispatch
import Foundation

@testable import ConditionalOperations

/// Fan-out and fan-in above 64 (Foundation's and the library's small-count paths end there):
/// a root with 65 to 130 dependents, which a sink depends on in turn, on either queue kind,
/// started by hand or run by a group; some of them cancelled, timed out or finished early from
/// other threads, their priorities changed. Every operation ends once, and none executes before
/// every dependency finished (S9).
struct AdversaryFanPlan: Equatable, Sendable {
    struct Fan: Equatable, Sendable {
        let kind: AdversaryQueueKind
        let grouped: Bool
        let width: Int
        /// Per middle operation: a cancel after so many µs (`nil`: none).
        let cancels: [Int?]
        /// Per middle operation: a timeout of so many µs (`nil`: none).
        let timeouts: [Int?]
        /// Per middle operation: how long it runs, in µs.
        let work: [Int]
        let priorities: [Int]
        /// The sink also needs no failed dependency (`NoFailedDependencies`).
        let sinkNeedsSuccess: Bool
        /// The root is cancelled at once.
        let rootCancelled: Bool
    }

    let seed: UInt64
    let fans: [Fan]

    init(seed: UInt64, fans count: Int) {
        self.seed = seed
        var random = SplitMix64(seed: seed)
        fans = (0..<count).map { _ in
            let width = random.int(65...130)
            return Fan(
                kind: random.pick(AdversaryQueueKind.allCases), grouped: random.chance(30), width: width,
                cancels: (0..<width).map { _ in random.chance(10) ? random.pick([0, 100, 1_000]) : nil },
                timeouts: (0..<width).map { _ in random.chance(5) ? random.pick([0, 200]) : nil },
                work: (0..<width).map { _ in random.pick([0, 0, 0, 200]) },
                priorities: (0..<width).map { _ in random.int(0..<AdversaryStep.priorities.count) },
                sinkNeedsSuccess: random.chance(40), rootCancelled: random.chance(15))
        }
    }
}

enum AdversaryFanRound {
    static func run(_ plan: AdversaryFanPlan) async -> [String] {
        var failures: [String] = []
        for (index, fan) in plan.fans.enumerated() {
            failures += await run(fan, label: "\(StressConfiguration.hex(plan.seed)).\(index)").map {
                "fan \(index) (\(fan.kind), width \(fan.width)\(fan.grouped ? ", in a group" : "")"
                    + "\(fan.rootCancelled ? ", root cancelled" : "")): \($0)"
            }
        }
        return failures
    }

    private static func run(_ fan: AdversaryFanPlan.Fan, label: String) async -> [String] {
        let seconds = AdversaryConfiguration.stallSeconds
        var failures: [String] = []
        var references: [StressWeakReference] = []
        let violations = Locked<[String]>([])
        do {
            let root = AdversaryOperation(label: "\(label) root")
            let middle = (0..<fan.width).map { AdversaryOperation(label: "\(label) #\($0)") }
            let sink = AdversaryOperation(label: "\(label) sink")
            if fan.sinkNeedsSuccess { sink.addCondition(NoFailedDependencies()) }
            let all = [root] + middle + [sink]
            for (index, operation) in middle.enumerated() {
                if let timeout = fan.timeouts[index] {
                    operation.addObserver(TimeoutObserver(timeout: .microseconds(timeout)))
                }
                operation.addDependency(root)
                operation.queuePriority = AdversaryStep.priorities[fan.priorities[index]]
                sink.addDependency(operation)
            }
            for operation in all {
                // S9: it starts only once every dependency finished.
                operation.addObserver(
                    BlockObserver(didStart: { started in
                        let waiting = started.dependencies.filter { !$0.isFinished }.count
                        if waiting > 0 {
                            violations.withLock {
                                $0.append("S9: \(started.name ?? "") started with \(waiting) unfinished")
                            }
                        }
                    }))
            }
            let group = fan.grouped ? AdversaryGroup(label: "\(label) group", children: all) : nil
            references = all.map { StressWeakReference(object: $0, label: $0.name ?? "") }
            if let group { references.append(StressWeakReference(object: group, label: "group")) }
            let tops: [ConditionalOperation] = group.map { [$0] } ?? all
            let queue: OperationQueue? =
                switch fan.kind {
                case .plain: OperationQueue()
                case .conditional: ConditionalOperationQueue()
                case .byHand: nil
                }
            if let queue { references.append(StressWeakReference(object: queue, label: "queue")) }
            if fan.rootCancelled { root.cancel() }
            if let queue {
                hand(tops, to: queue)
            } else {
                for operation in tops { DispatchQueue.global().async { operation.start() } }
            }
            for (index, operation) in middle.enumerated() {
                if let delay = fan.cancels[index] {
                    stressAfter(delay) {
                        operation.cancel(with: StressError(kind: .cancel, operation: index))
                    }
                }
                operation.resolve(working: fan.work[index])
            }
            root.resolve()
            sink.resolve()
            let members: [(ConditionalOperation, StressProbe, Latch)] =
                all.map { ($0, $0.probe, $0.completed) }
                + (group.map { [($0, $0.probe, $0.completed)] } ?? [])
            for (operation, _, completed) in members where !(await completed.wait(seconds: seconds)) {
                failures.append("stall: \(operation.name ?? "") \(operation.state), \(operation.diagnosis)")
                for (other, _, _) in members { other.cancel() }
                return failures
            }
            for (operation, probe, _) in members {
                failures += StressChecks.lifecycle(of: operation, probe: probe).map {
                    "\(operation.name ?? ""): \($0)"
                }
            }
        }
        failures += violations.withLock { $0 }
        let leaked = await references.outlived()
        if !leaked.isEmpty { failures.append("S12: outlived the fan: \(leaked.prefix(20))") }
        return failures
    }

    /// In one batch (`addOperations(_:waitUntilFinished:)`, which async code can't call on Linux).
    private static func hand(_ operations: [Foundation.Operation], to queue: OperationQueue) {
        queue.addOperations(operations, waitUntilFinished: false)
    }
}
