import Dispatch
import Foundation

@testable import ConditionalOperations

/// S12 under fire: webs of operations (dependencies, conditions answering late, a shared
/// category, a group, cancels from other threads) whose every reference the test holds is
/// dropped as soon as they are enqueued: queues, groups, operations and conditions then live
/// only as long as the library keeps them. Every enqueued operation must still finish exactly
/// once, and afterwards nothing may be left.
struct AdversaryReleasePlan: Equatable, Sendable {
    struct Web: Equatable, Sendable {
        let kind: AdversaryQueueKind
        /// Per operation: the earlier operations it depends on.
        let dependencies: [[Int]]
        /// Per operation: a condition answering after so many µs (`nil`: none), and how.
        let conditions: [Int?]
        let failing: [Bool]
        let exclusive: [Bool]
        /// Per operation: how long `execute()` runs, in µs.
        let work: [Int]
        /// Per operation: a cancel from another thread after so many µs (`nil`: none).
        let cancels: [Int?]
        /// The operations run by a group (a contiguous range), if any.
        let group: Range<Int>?
        /// An operation with 65 or more dependencies, enqueued and cancelled at once: it finishes,
        /// and is released, before its dependencies do.
        let bigFanIn: Int?
        /// Operations depending on one of the web's each, never enqueued, released after so many
        /// µs each.
        let neverEnqueued: [Int]

        var count: Int { dependencies.count }
    }

    let seed: UInt64
    let webs: [Web]

    /// - Parameters:
    ///   - dependentsFirst: whether an operation may finish, and be released, before its
    ///     dependencies: a `bigFanIn`, cancels of operations with dependencies (the new finding:
    ///     a deadlock, see `S12_knownIssue_aDependentReleasedWhileItsDependencyFinishes`).
    ///   - orphans: whether webs may have operations `neverEnqueued`, released while their
    ///     dependency finishes.
    init(seed: UInt64, webs count: Int, dependentsFirst: Bool = true, orphans: Bool = true) {
        self.seed = seed
        var random = SplitMix64(seed: seed)
        webs = (0..<count).map { _ in
            let size = random.int(8...40)
            let group: Range<Int>? =
                random.chance(50)
                ? {
                    let start = random.int(0..<(size - 4))
                    return start..<(start + random.int(2...min(10, size - start)))
                }() : nil
            let kind = random.pick(AdversaryQueueKind.allCases)
            let dependencies = (0..<size).map { index in
                index == 0 ? [] : (0..<random.int(0...3)).map { _ in random.int(0..<index) }
            }
            return Web(
                kind: kind,
                dependencies: dependencies,
                conditions: (0..<size).map { _ in random.chance(40) ? random.pick([0, 50, 500]) : nil },
                failing: (0..<size).map { _ in random.chance(15) },
                exclusive: (0..<size).map { _ in random.chance(20) },
                work: (0..<size).map { _ in random.pick([0, 0, 100, 1_000]) },
                cancels: (0..<size).map { index in
                    let delay: Int? = random.chance(20) ? random.pick([0, 100, 800]) : nil
                    return dependentsFirst || dependencies[index].isEmpty ? delay : nil
                },
                group: group,
                bigFanIn: random.chance(30) && dependentsFirst ? random.int(65...100) : nil,
                neverEnqueued: random.chance(50) && orphans
                    ? (0..<random.int(1...20)).map { _ in random.pick([0, 20, 50, 200, 500, 1_000]) } : [])
        }
    }
}

/// A condition that answers from another thread after a while; it holds nothing of its operation.
final class AdversaryTimedCondition: OperationCondition, Sendable {
    let name: String
    let micros: Int
    let fails: Bool

    init(name: String, micros: Int, fails: Bool) {
        self.name = name
        self.micros = micros
        self.fails = fails
    }

    func evaluate(
        for operation: ConditionalOperation,
        completion: @escaping @Sendable (OperationConditionResult) -> Void
    ) {
        let result: OperationConditionResult =
            fails ? .failed(StressError(kind: .condition, operation: 0)) : .satisfied
        stressAfter(micros) { completion(result) }
    }
}

enum AdversaryReleaseRound {
    static func run(_ plan: AdversaryReleasePlan) async -> [String] {
        var failures: [String] = []
        for (index, web) in plan.webs.enumerated() {
            failures += await run(web, label: "\(StressConfiguration.hex(plan.seed)).\(index)").map {
                "web \(index) (\(web.kind), \(web.count) operations\(web.group.map { ", group \($0)" } ?? "")"
                    + "\(web.bigFanIn.map { ", \($0) dependencies of one released early" } ?? "")"
                    + "\(web.neverEnqueued.isEmpty ? "" : ", \(web.neverEnqueued.count) never enqueued")): \($0)"
            }
        }
        return failures
    }

    private struct Built {
        var probes: [(String, StressProbe)] = []
        var references: [StressWeakReference] = []
        var category = ""
        let finished = Latch(count: 0)
    }

    private static func run(_ web: AdversaryReleasePlan.Web, label: String) async -> [String] {
        let seconds = AdversaryConfiguration.stallSeconds
        let built = build(web, label: label)
        var failures: [String] = []
        if !(await built.finished.wait(seconds: seconds)) {
            let unfinished = built.references.compactMap { reference -> String? in
                guard let operation = reference.object as? Foundation.Operation, !operation.isFinished else {
                    return nil
                }
                let conditional = operation as? ConditionalOperation
                return
                    "\(reference.label) (\(conditional?.diagnosis.description ?? "executing \(operation.isExecuting)"))"
            }
            let incomplete = built.probes.filter { !$0.1.events.contains(.completionBlock) }.map {
                "\($0.0): \($0.1.events)"
            }
            failures.append(
                "stall: \(built.finished.remaining) never finished after \(seconds) s; no completion block: "
                    + "\(incomplete.prefix(5)); unfinished: "
                    + unfinished.prefix(10).joined(separator: "; "))
            return failures
        }
        for (name, probe) in built.probes {
            failures += StressChecks.lifecycle(of: probe).map { "\(name): \($0)" }
        }
        let requests = ExclusivityController.shared.requestCount(for: built.category)
        if requests != 0 { failures.append("S7: \(requests) requests left for the web's category") }
        let references = built.references
        let leaked = await references.outlived()
        if !leaked.isEmpty { failures.append("S12: outlived the web: \(leaked.prefix(20))") }
        return failures
    }

    /// Builds and enqueues the web; returns only probes, weak references and the latch: every
    /// strong reference ends with this function (save those that closures hold a moment longer).
    private static func build(_ web: AdversaryReleasePlan.Web, label: String) -> Built {
        var built = Built()
        built.category = "adversary release \(label)"
        let finished = built.finished
        var operations: [AdversaryOperation] = []
        func track(_ object: AnyObject, _ name: String) {
            built.references.append(StressWeakReference(object: object, label: name))
        }
        for index in 0..<web.count {
            let operation = AdversaryOperation(label: "\(label) #\(index)")
            if let micros = web.conditions[index] {
                let condition = AdversaryTimedCondition(
                    name: "timed #\(index)", micros: micros, fails: web.failing[index])
                track(condition, "condition of #\(index)")
                operation.addCondition(condition)
            }
            if web.exclusive[index] { operation.addCondition(MutuallyExclusive(category: built.category)) }
            for dependency in Set(web.dependencies[index]) { operation.addDependency(operations[dependency]) }
            let done = operation.completionBlock
            finished.countUp()
            operation.completionBlock = {
                done?()
                finished.countDown()
            }
            operation.resolve(working: web.work[index])
            if let delay = web.cancels[index] {
                stressAfter(delay) { [weak operation] in
                    operation?.cancel(with: StressError(kind: .cancel, operation: index))
                }
            }
            track(operation, "#\(index)")
            built.probes.append(("#\(index)", operation.probe))
            operations.append(operation)
        }
        var tops: [Foundation.Operation] = operations
        if let range = web.group {
            let group = AdversaryGroup(label: "\(label) group", children: Array(operations[range]))
            let done = group.completionBlock
            finished.countUp()
            group.completionBlock = {
                done?()
                finished.countDown()
            }
            track(group, "group")
            built.probes.append(("group", group.probe))
            tops = Array(operations[..<range.lowerBound]) + [group] + Array(operations[range.upperBound...])
        }
        if let count = web.bigFanIn {
            // Dependencies of its own, running a while; it is cancelled, so it finishes first.
            let fanIn = AdversaryOperation(label: "\(label) fan-in")
            for index in 0..<count {
                let dependency = AdversaryOperation(label: "\(label) fan-in dependency \(index)")
                let done = dependency.completionBlock
                finished.countUp()
                dependency.completionBlock = {
                    done?()
                    finished.countDown()
                }
                stressAfter(index.isMultiple(of: 2) ? 200 : 1_000) { dependency.resolve() }
                track(dependency, "fan-in dependency \(index)")
                built.probes.append(("fan-in dependency \(index)", dependency.probe))
                fanIn.addDependency(dependency)
                tops.append(dependency)
            }
            let done = fanIn.completionBlock
            finished.countUp()
            fanIn.completionBlock = {
                done?()
                finished.countDown()
            }
            track(fanIn, "fan-in of \(count)")
            built.probes.append(("fan-in", fanIn.probe))
            tops.append(fanIn)
            fanIn.cancel()
        }
        for (number, delay) in web.neverEnqueued.enumerated() {
            let orphan = ConditionalOperation()
            orphan.name = "\(label) never enqueued \(number)"
            orphan.addDependency(operations[(number * 7) % operations.count])
            track(orphan, "never enqueued \(number)")
            stressAfter(delay) { _ = orphan }  // its last reference, dropped from another thread
        }
        let queue: OperationQueue
        switch web.kind {
        case .plain: queue = OperationQueue()
        case .conditional: queue = ConditionalOperationQueue()
        case .byHand:
            // Nothing holds an operation started by hand but its caller, which keeps them until
            // they all finished (as one waiting for them would), then lets go at once.
            let tops = tops
            Task {
                _ = await finished.wait(seconds: AdversaryConfiguration.stallSeconds)
                _ = tops
            }
            for operation in tops { DispatchQueue.global().async { operation.start() } }
            return built
        }
        queue.name = "\(label) queue"
        track(queue, "queue")
        queue.addOperations(tops, waitUntilFinished: false)
        return built
    }
}
