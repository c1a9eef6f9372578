import Dispatch
import Foundation

@testable import ConditionalOperations

/// S19 and S7 under fire: a category with a limit of 2 to 4, one unit held by a long holder for
/// the whole round, and operations needing it on both queue kinds, started by hand and in
/// groups that hold it themselves (a group takes one unit; its children needing the category
/// share that unit, one at a time), while cancels, early finishes and timeouts land. At no
/// moment do more than `limit` units execute, or more than one child of a group; every
/// operation ends once; no request is left.
struct AdversaryLimitPlan: Equatable, Sendable {
    struct Member: Equatable, Sendable {
        let kind: AdversaryQueueKind
        /// The group it belongs to (an index into `groups`), if any.
        let group: Int?
        let needsCategory: Bool
        let work: Int
        let cancel: Int?
        let finishesEarly: Bool
        let timeout: Int?
    }

    struct Group: Equatable, Sendable {
        let kind: AdversaryQueueKind
        let cancel: Int?
    }

    let seed: UInt64
    let limit: Int
    let groups: [Group]
    let members: [Member]

    init(seed: UInt64, members count: Int) {
        self.seed = seed
        var random = SplitMix64(seed: seed)
        limit = random.int(2...4)
        groups = (0..<random.int(0...3)).map { _ in
            Group(
                kind: random.pick(AdversaryQueueKind.allCases),
                cancel: random.chance(15) ? random.pick([0, 500]) : nil)
        }
        let groupCount = groups.count
        members = (0..<count).map { _ in
            let group = groupCount > 0 && random.chance(30) ? random.int(0..<groupCount) : nil
            return Member(
                kind: random.pick(AdversaryQueueKind.allCases), group: group,
                needsCategory: group == nil || random.chance(70), work: random.pick([0, 50, 300, 1_000]),
                cancel: random.chance(15) ? random.pick([0, 100, 700]) : nil, finishesEarly: random.chance(5),
                timeout: random.chance(5) ? random.pick([0, 300]) : nil)
        }
    }

    var category: String { "adversary limit \(StressConfiguration.hex(seed))" }
}

/// The units of a category in use, counted from `operationDidStart` to `finished(errors:)`.
final class AdversaryUnits: Sendable {
    private struct State {
        var outer = 0
        var inside: [Int: Int] = [:]
        var peak = 0
        var violations: [String] = []
    }

    let limit: Int
    private let state = Locked(State())

    init(limit: Int) { self.limit = limit }

    var violations: [String] { state.withLock { $0.violations } }
    var peak: Int { state.withLock { $0.peak } }

    /// A holder outside every group (`group == nil`), or a child of group `group`, began.
    func enter(group: Int?, label: String) {
        state.withLock { state in
            if let group {
                state.inside[group, default: 0] += 1
                if state.inside[group]! > 1 {
                    state.violations.append(
                        "S7: \(label) executes beside another child of its group holding the category")
                }
            } else {
                state.outer += 1
                state.peak = max(state.peak, state.outer)
                if state.outer > limit {
                    state.violations.append("S19: \(label) makes \(state.outer) units of a limit of \(limit)")
                }
            }
        }
    }

    func leave(group: Int?) {
        state.withLock { state in
            if let group { state.inside[group, default: 0] -= 1 } else { state.outer -= 1 }
        }
    }
}

enum AdversaryLimitRound {
    static func run(_ plan: AdversaryLimitPlan) async -> [String] {
        let seconds = AdversaryConfiguration.stallSeconds
        let category = plan.category
        let units = AdversaryUnits(limit: plan.limit)
        var failures: [String] = []
        var references: [StressWeakReference] = []
        do {
            let plain = OperationQueue()
            let conditional = ConditionalOperationQueue()
            func launch(_ operation: ConditionalOperation, _ kind: AdversaryQueueKind) {
                switch kind {
                case .plain: plain.addOperation(operation)
                case .conditional: conditional.addOperation(operation)
                case .byHand: DispatchQueue.global().async { operation.start() }
                }
            }
            func count(_ operation: ConditionalOperation, probe: StressProbe, group: Int?)
                -> @Sendable () -> Void
            {
                let entered = Locked(false)
                let label = operation.name ?? ""
                operation.addObserver(
                    BlockObserver(didStart: { _ in
                        entered.withLock { $0 = true }
                        units.enter(group: group, label: label)
                    }))
                return { if entered.withLock({ $0 }) { units.leave(group: group) } }
            }
            let holder = AdversaryOperation(label: "\(category) long holder")
            holder.addCondition(MutuallyExclusive(category: category, limit: plan.limit))
            _ = holder.whenFinishing(count(holder, probe: holder.probe, group: nil))
            conditional.addOperation(holder)
            guard await holder.executing.wait(seconds: seconds) else {
                return ["the long holder never executed: \(holder.diagnosis)"]
            }
            var members: [AdversaryOperation] = []
            var children: [[Foundation.Operation]] = plan.groups.map { _ in [] }
            for (index, member) in plan.members.enumerated() {
                let operation = AdversaryOperation(label: "\(category) #\(index)")
                if member.needsCategory {
                    operation.addCondition(MutuallyExclusive(category: category, limit: plan.limit))
                    _ = operation.whenFinishing(count(operation, probe: operation.probe, group: member.group))
                }
                if let timeout = member.timeout {
                    operation.addObserver(TimeoutObserver(timeout: .microseconds(timeout)))
                }
                if member.finishesEarly { operation.finish() }
                members.append(operation)
                if let group = member.group { children[group].append(operation) }
            }
            let groups = plan.groups.enumerated().map { index, _ in
                let group = AdversaryGroup(label: "\(category) group \(index)", children: children[index])
                group.addCondition(MutuallyExclusive(category: category, limit: plan.limit))
                group.addObserver(
                    BlockObserver(didStart: { _ in units.enter(group: nil, label: "group \(index)") }))
                group.addObserver(
                    BlockObserver(didFinish: { finished, _ in
                        if StressEvents((finished as? AdversaryGroup)?.probe.events ?? []).started {
                            units.leave(group: nil)
                        }
                    }))
                return group
            }
            for (index, member) in plan.members.enumerated() where member.group == nil {
                launch(members[index], member.kind)
            }
            for (group, groupPlan) in zip(groups, plan.groups) { launch(group, groupPlan.kind) }
            for (operation, member) in zip(members, plan.members) {
                operation.resolve(working: member.work)
                if let delay = member.cancel { stressAfter(delay) { operation.cancel() } }
            }
            for (group, groupPlan) in zip(groups, plan.groups) {
                if let delay = groupPlan.cancel { stressAfter(delay) { group.cancel() } }
            }
            let all: [(ConditionalOperation, StressProbe, Latch)] =
                members.map { ($0, $0.probe, $0.completed) } + groups.map { ($0, $0.probe, $0.completed) }
            var stalled = false
            for (operation, _, completed) in all
            where !(await completed.wait(seconds: stalled ? 0.1 : seconds)) {
                stalled = true
                failures.append("stall: \(operation.name ?? "") \(operation.state): \(operation.diagnosis)")
            }
            holder.resolve()
            if stalled {
                for (operation, _, _) in all { operation.cancel() }
                return failures
            }
            guard await holder.completed.wait(seconds: seconds) else {
                return failures + ["the long holder never finished"]
            }
            for (operation, probe, _) in all + [(holder, holder.probe, holder.completed)] {
                failures += StressChecks.lifecycle(of: operation, probe: probe).map {
                    "\(operation.name ?? ""): \($0)"
                }
            }
            failures += units.violations
            var categories = [category]
            categories += groups.map { ExclusivityController.scopedCategory(category, in: $0) }
            for name in categories where ExclusivityController.shared.requestCount(for: name) != 0 {
                failures.append(
                    "S7: \(ExclusivityController.shared.requestCount(for: name)) requests left for '\(name)'")
            }
            references = all.map { StressWeakReference(object: $0.0, label: $0.0.name ?? "") }
            references += [
                StressWeakReference(object: holder, label: "long holder"),
                StressWeakReference(object: plain, label: "queue"),
                StressWeakReference(object: conditional, label: "conditional queue"),
            ]
        }
        let leaked = await references.outlived()
        if !leaked.isEmpty { failures.append("S12: outlived the round: \(leaked.prefix(20))") }
        return failures.map {
            "limit \(plan.limit), \(plan.groups.count) groups, \(plan.members.count) operations: \($0)"
        }
    }
}

extension AdversaryLimitRound {
    /// The time per operation of `count` short operations through a category with a limit of 2
    /// while a long holder keeps one unit, on a `ConditionalOperationQueue`; `nil` on a stall.
    static func costPerOperation(count: Int, seed: UInt64) async -> Double? {
        let category = "adversary cost \(StressConfiguration.hex(seed)) \(count)"
        let queue = ConditionalOperationQueue()
        let holder = AdversaryOperation(label: "\(category) long holder")
        holder.addCondition(MutuallyExclusive(category: category, limit: 2))
        queue.addOperation(holder)
        guard await holder.executing.wait(seconds: 10) else { return nil }
        let done = Latch(count: count)
        let operations = (0..<count).map { _ in
            let operation = BlockOperationLike()
            operation.addCondition(MutuallyExclusive(category: category, limit: 2))
            operation.completionBlock = { done.countDown() }
            return operation
        }
        let clock = ContinuousClock()
        let start = clock.now
        for operation in operations { queue.addOperation(operation) }
        let finished = await done.wait(seconds: AdversaryConfiguration.stallSeconds * 3)
        let elapsed = clock.now - start
        holder.resolve()
        _ = await holder.completed.wait(seconds: 10)
        return finished ? elapsed.seconds / Double(count) : nil
    }

    /// An operation that finishes as it executes.
    final class BlockOperationLike: ConditionalOperation, @unchecked Sendable {  // no stored state
        override func execute() { finish() }
    }
}
