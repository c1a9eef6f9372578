/// The shape of one stress batch: a pure value made from a seed and a size, so that a seed
/// replays the same workload (the thread interleavings differ from run to run, the shape does not).
///
/// Operations are numbered in creation order and depend only on lower numbers, so the
/// dependency graph is acyclic. Times are in microseconds.
struct StressPlan: Equatable, Sendable {
    var seed: UInt64
    var queues: [QueuePlan]
    var operations: [OperationPlan]
    /// The order in which operations are added to their queues (a permutation of their indices).
    var enqueueOrder: [Int]
    /// How many mutual-exclusivity categories the batch uses.
    var categoryCount: Int

    struct QueuePlan: Equatable, Sendable {
        /// Index in ``StressQueueKind/all``.
        var kind: Int
        var maxConcurrentOperationCount: Int
        var startsSuspended: Bool
        /// When a queue that starts suspended is resumed, after every operation was added.
        var resumeAfter: Int
        /// Suspensions while the batch runs: suspended `after` µs (after the previous toggle),
        /// resumed `duration` µs later.
        var toggles: [Toggle]
    }

    struct Toggle: Equatable, Sendable {
        var after: Int
        var duration: Int
    }

    enum Work: Equatable, Sendable {
        /// `finish` inside `execute()`.
        case finishAtOnce
        /// `finish` later, from another thread (0: at once on another thread).
        case finishLater(Int)
        /// Never finishes by itself: a `TimeoutObserver` or a cancel ends it.
        case never
    }

    enum Timing: Equatable, Sendable {
        case sync
        /// Answers from another thread, after a delay (0: at once).
        case async(Int)
    }

    /// A ``StressCondition``: a scripted answer, optionally with a dependency (S3).
    struct ProbePlan: Equatable, Sendable {
        var satisfied: Bool
        var timing: Timing
        /// Calls its completion a second time, with the opposite answer (S2: counted once).
        var answersTwice: Bool
        var hasDependency: Bool
        /// Cancels its operation (from the answering thread) before answering.
        var cancelsOperation: Bool
    }

    enum Wrapper: Equatable, Sendable {
        case plain, negated, silent, silentNegated
    }

    enum ConditionPlan: Equatable, Sendable {
        case probe(ProbePlan, Wrapper)
        /// `BlockCondition` returning this value.
        case block(Bool)
        /// `BlockCondition` that throws.
        case throwing
        case noFailedDependencies(ignoringCancellations: Bool)
        /// `MutuallyExclusive` for one of the batch's categories, possibly inside a `SilentCondition`.
        case exclusive(category: Int, silent: Bool)
    }

    enum CancelMoment: Equatable, Sendable {
        /// Before the operation is added to its queue.
        case beforeEnqueue
        /// From another thread, this long after every operation was added.
        case afterEnqueue(Int)
        /// From another thread, this long after `operationDidStart`.
        case afterStart(Int)
        /// By one of its conditions while it is evaluated (see ``ProbePlan/cancelsOperation``).
        case duringEvaluation
    }

    struct CancelPlan: Equatable, Sendable {
        var moment: CancelMoment
        /// `cancel(with:)` rather than `cancel()`.
        var withError: Bool
        /// A second cancel at the same moment from another thread (S1: `didCancel` at most once).
        var twice: Bool
    }

    struct OperationPlan: Equatable, Sendable {
        var queue: Int
        var dependencies: [Int]
        var work: Work
        /// The operation finishes with an error of its own.
        var finishesWithError: Bool
        /// Operations produced inside `execute()` (S10).
        var produces: Int
        var conditions: [ConditionPlan]
        /// A `TimeoutObserver`, in µs.
        var timeout: Int?
        var cancel: CancelPlan?
        /// `finish` from another thread, this long after enqueuing: before, while or after it executes.
        var externalFinish: Int?
        var externalFinishWithError: Bool
        /// `false`: a cancel while executing does not finish it; it finishes itself (S5).
        var finishesWhenCancelled: Bool
        /// A task awaits `waitUntilFinished()` (it must return after every `operationDidFinish`).
        var awaited: Bool
        /// `isReady` queries from other threads, this long after enqueuing (Foundation's queue asks
        /// at any time too).
        var readinessQueries: [Int]

        var categories: [Int] {
            conditions.compactMap { if case .exclusive(let category, _) = $0 { category } else { nil } }
        }
    }
}

extension StressPlan {
    /// Generates the batch of `count` operations that `seed` stands for.
    init(seed: UInt64, count: Int) {
        var random = SplitMix64(seed: seed)
        self.seed = seed
        categoryCount = random.int(1...4)
        queues = (0..<random.int(1...4)).map { _ in Self.queuePlan(&random) }
        operations = []
        operations.reserveCapacity(count)
        let dependencies = Self.dependencyGraph(count: count, &random)
        for index in 0..<count {
            operations.append(
                Self.operationPlan(
                    dependencies: dependencies[index], queues: queues.count, categories: categoryCount,
                    &random))
        }
        enqueueOrder = Array(0..<count)
        if random.chance(30) {
            for index in stride(from: count - 1, to: 0, by: -1) {
                enqueueOrder.swapAt(index, random.int(0...index))
            }
        }
    }

    private static func queuePlan(_ random: inout SplitMix64) -> QueuePlan {
        // A draw that never changes with the number of kinds, so adding a kind keeps every
        // seed's shape (only which queue kind it gets changes).
        let kind = Int(random.next() % UInt64(StressQueueKind.all.count))
        let toggles = random.chance(25) ? random.int(1...3) : 0
        return QueuePlan(
            kind: kind,
            maxConcurrentOperationCount: random.pick([-1, -1, 1, 1, 2, 3, 8]),
            startsSuspended: random.chance(25),
            resumeAfter: random.int(0...3_000),
            toggles: (0..<toggles).map { _ in
                Toggle(after: random.int(0...2_000), duration: random.int(100...2_000))
            })
    }

    /// Segments of chains, fan-outs, fan-ins, random links and independent operations.
    private static func dependencyGraph(count: Int, _ random: inout SplitMix64) -> [[Int]] {
        var dependencies = Array(repeating: [Int](), count: count)
        var start = 0
        while start < count {
            let shape = random.int(0..<5)
            let longest = shape == 0 ? 200 : 80
            let end = min(count, start + random.int(1...longest))
            switch shape {
            case 0:  // a deep chain
                for index in (start + 1)..<max(start + 1, end) { dependencies[index] = [index - 1] }
            case 1:  // fan-out: everything waits for the first
                for index in (start + 1)..<max(start + 1, end) { dependencies[index] = [start] }
            case 2:  // fan-in: the last waits for everything
                if end - start > 1 { dependencies[end - 1] = Array(start..<(end - 1)) }
            case 3:  // random links to recent operations
                for index in (start + 1)..<max(start + 1, end) {
                    let links = random.int(0...3)
                    let window = max(0, index - 50)..<index
                    dependencies[index] = Array(Set((0..<links).map { _ in random.int(window) })).sorted()
                }
            default:  // independent
                break
            }
            // Tie the segment to what came before.
            if start > 0 && random.chance(30) {
                let earlier = random.int(0..<start)
                if !dependencies[start].contains(earlier) { dependencies[start].append(earlier) }
            }
            start = end
        }
        return dependencies
    }

    private static func operationPlan(
        dependencies: [Int], queues: Int, categories: Int, _ random: inout SplitMix64
    ) -> OperationPlan {
        let work: Work
        switch random.int(0..<100) {
        case 0..<45: work = .finishAtOnce
        case 45..<85: work = .finishLater(random.chance(30) ? 0 : random.int(1...500))
        default: work = .never
        }
        var plan = OperationPlan(
            queue: random.int(0..<queues), dependencies: dependencies, work: work,
            finishesWithError: random.chance(15), produces: random.chance(10) ? random.int(1...2) : 0,
            conditions: [], timeout: random.chance(10) ? random.int(200...5_000) : nil,
            cancel: nil, externalFinish: nil, externalFinishWithError: false,
            finishesWhenCancelled: work == .never || !random.chance(15), awaited: random.chance(10),
            readinessQueries: [])

        if random.chance(50) {
            for _ in 0..<random.int(1...4) {
                plan.conditions.append(conditionPlan(&random, hasDependencies: !dependencies.isEmpty))
            }
        }
        let categoryDraw = random.int(0..<100)
        let categoryCount = categoryDraw < 60 ? 0 : categoryDraw < 85 ? 1 : random.int(2...3)
        for category in Array(Set((0..<categoryCount).map { _ in random.int(0..<categories) })).sorted() {
            plan.conditions.append(.exclusive(category: category, silent: random.chance(20)))
        }

        if random.chance(20) {
            let moment: CancelMoment
            switch random.int(0..<100) {
            case 0..<20: moment = .beforeEnqueue
            case 20..<70: moment = .afterEnqueue(random.int(0...3_000))
            case 70..<90: moment = .afterStart(random.int(0...300))
            default:
                moment = .duringEvaluation
                let probe = ProbePlan(
                    satisfied: true, timing: .async(random.int(0...300)), answersTwice: false,
                    hasDependency: false, cancelsOperation: true)
                plan.conditions.append(.probe(probe, .plain))
            }
            let twice = moment != .duringEvaluation && random.chance(30)
            plan.cancel = CancelPlan(moment: moment, withError: random.chance(75), twice: twice)
        }
        if random.chance(4) {
            plan.externalFinish = random.int(0...3_000)
            plan.externalFinishWithError = random.chance(50)
        }
        if random.chance(10) {
            plan.readinessQueries = (0..<random.int(1...3)).map { _ in random.int(0...2_000) }
        }
        // Something must end an operation that never finishes by itself.
        if work == .never && plan.timeout == nil && plan.externalFinish == nil {
            switch plan.cancel?.moment {
            case .beforeEnqueue?, .afterEnqueue?, .afterStart?: break
            default: plan.timeout = random.int(200...5_000)
            }
        }
        return plan
    }

    private static func conditionPlan(_ random: inout SplitMix64, hasDependencies: Bool) -> ConditionPlan {
        switch random.int(0..<100) {
        case 0..<55:
            let timing: Timing
            switch random.int(0..<100) {
            case 0..<30: timing = .sync
            case 30..<70: timing = .async(0)
            default: timing = .async(random.int(1...500))
            }
            let probe = ProbePlan(
                satisfied: random.chance(85), timing: timing, answersTwice: random.chance(10),
                hasDependency: random.chance(15), cancelsOperation: false)
            let wrapper: Wrapper
            switch random.int(0..<100) {
            case 0..<70: wrapper = .plain
            case 70..<85: wrapper = .negated
            case 85..<95: wrapper = .silent
            default: wrapper = .silentNegated
            }
            return .probe(probe, wrapper)
        case 55..<72: return .block(random.chance(85))
        case 72..<77: return .throwing
        default:
            guard hasDependencies else { return .block(true) }
            return .noFailedDependencies(ignoringCancellations: random.chance(50))
        }
    }
}

extension StressPlan {
    /// A one-line summary of the shape, for logs.
    var summary: String {
        let edges = operations.reduce(0) { $0 + $1.dependencies.count }
        let conditions = operations.reduce(0) { $0 + $1.conditions.count }
        let cancels = operations.count(where: { $0.cancel != nil })
        let queueText = queues.map { queue in
            "\(StressQueueKind.all[queue.kind].name)(max \(queue.maxConcurrentOperationCount)"
                + (queue.startsSuspended ? ", suspended" : "")
                + (queue.toggles.isEmpty ? "" : ", \(queue.toggles.count) toggles") + ")"
        }
        return "\(operations.count) operations, \(edges) dependencies, \(conditions) conditions, "
            + "\(categoryCount) categories, \(cancels) cancels, queues: \(queueText.joined(separator: ", "))"
    }
}
