import Dispatch
import Foundation

@testable import ConditionalOperations

/// What one batch did, and every invariant it broke.
struct StressOutcome: Sendable {
    var seed: UInt64
    var operations: Int
    var duration: Duration = .zero
    var failures: [String] = []
    var executed = 0
    var cancelled = 0
    var conditionFailures = 0
    var timedOut = 0
    /// `execute()` entered once a cancel had already moved the operation on (allowed by S5).
    var lateExecutes = 0
    var extraOperations = 0
}

/// Builds one batch from its plan, runs it, and checks every invariant.
enum StressBatch {
    /// The operations and queues of a batch, alive while it runs.
    private final class Built {
        let context: StressContext
        let queues: [OperationQueue]
        let operations: [StressOperation]

        init(_ plan: StressPlan, context: StressContext) {
            self.context = context
            queues = plan.queues.enumerated().map { index, queuePlan in
                let queue = StressQueueKind.all[queuePlan.kind].make()
                queue.name = "stress queue \(index)"
                queue.maxConcurrentOperationCount = queuePlan.maxConcurrentOperationCount
                queue.isSuspended = queuePlan.startsSuspended
                return queue
            }
            var operations: [StressOperation] = []
            operations.reserveCapacity(plan.operations.count)
            for (index, operationPlan) in plan.operations.enumerated() {
                operations.append(Self.make(index, operationPlan, context: context, earlier: operations))
            }
            self.operations = operations
        }

        private static func make(
            _ index: Int, _ plan: StressPlan.OperationPlan, context: StressContext, earlier: [StressOperation]
        ) -> StressOperation {
            var statuses: [StressConditionStatus] = []
            var conditions: [any OperationCondition] = []
            let cancelWithError = plan.cancel?.withError ?? true
            for (conditionIndex, conditionPlan) in plan.conditions.enumerated() {
                switch conditionPlan {
                case .probe(let probe, let wrapper):
                    let status = StressConditionStatus(
                        name: "probe#\(index).\(conditionIndex)", plan: probe, wrapper: wrapper)
                    statuses.append(status)
                    let condition = StressCondition(
                        status: status, context: context, operationIndex: index,
                        conditionIndex: conditionIndex,
                        cancelWithError: cancelWithError)
                    context.track(condition, status.name)
                    switch wrapper {
                    case .plain: conditions.append(condition)
                    case .negated: conditions.append(NegatedCondition(condition))
                    case .silent: conditions.append(SilentCondition(condition))
                    case .silentNegated: conditions.append(SilentCondition(NegatedCondition(condition)))
                    }
                case .block(let value):
                    conditions.append(BlockCondition(name: "block#\(index).\(conditionIndex)") { value })
                case .throwing:
                    let error = StressError(kind: .thrown, operation: index, index: conditionIndex)
                    conditions.append(
                        BlockCondition(name: "throwing#\(index).\(conditionIndex)") { throw error })
                case .noFailedDependencies(let ignoring):
                    conditions.append(NoFailedDependencies(ignoringCancellations: ignoring))
                case .exclusive(let category, let silent):
                    let exclusive = MutuallyExclusive(category: context.categoryName(category))
                    conditions.append(
                        silent ? SilentCondition(exclusive) as any OperationCondition : exclusive)
                }
            }
            let operation = StressOperation(index: index, plan: plan, context: context, statuses: statuses)
            // Conditions first: a condition added once admitted traps (S13).
            for condition in conditions { operation.addCondition(condition) }
            var cancelAfterStart: Int?
            if case .afterStart(let delay)? = plan.cancel?.moment { cancelAfterStart = delay }
            operation.addObserver(
                StressObserver(
                    probe: operation.probe, context: context, index: index, categories: plan.categories,
                    cancelAfterStart: cancelAfterStart))
            if let timeout = plan.timeout {
                operation.addObserver(TimeoutObserver(timeout: .microseconds(timeout)))
            }
            for dependency in plan.dependencies { operation.addDependency(earlier[dependency]) }
            return operation
        }
    }

    /// Runs `plan`; a batch that has not finished after `stallSeconds` is a stall.
    static func run(_ plan: StressPlan, stallSeconds: Double) async -> StressOutcome {
        let clock = ContinuousClock()
        let start = clock.now
        var outcome = StressOutcome(seed: plan.seed, operations: plan.operations.count)
        let context = StressContext(plan: plan)
        var operationReferences: [StressWeakReference] = []
        var queueReferences: [StressWeakReference] = []
        var recovered = true
        do {
            let built = Built(plan, context: context)
            operationReferences = built.operations.map {
                StressWeakReference(object: $0, label: $0.name ?? "")
            }
            queueReferences = built.queues.map { StressWeakReference(object: $0, label: $0.name ?? "") }
            let done = Latch(count: built.operations.count)
            for operation in built.operations {
                let probe = operation.probe
                operation.completionBlock = {
                    probe.record(.completionBlock)
                    done.countDown()
                }
            }
            launch(built, plan)
            if !(await done.wait(seconds: stallSeconds)) {
                outcome.failures.append(stallReport(built, plan, after: stallSeconds))
                recovered = await rescue(built, done)
            }
            if recovered {
                if !(await context.extraWork.wait(seconds: stallSeconds)) {
                    outcome.failures.append(
                        "stall: \(context.extraWork.remaining) produced operations or condition dependencies never finished"
                    )
                }
                check(built, plan, into: &outcome)
            }
        }
        outcome.failures += context.recordedViolations
        if recovered {
            let references = operationReferences + queueReferences + context.trackedReferences
            let leaked = await references.outlived()
            if !leaked.isEmpty {
                outcome.failures.append(
                    "S12: \(leaked.count) objects outlived the batch: \(leaked.prefix(20).joined(separator: ", "))"
                )
            }
        }
        outcome.duration = clock.now - start
        return outcome
    }

    /// Adds the operations in the plan's order, one at a time or in runs through
    /// `addOperations(_:waitUntilFinished:)`, whose batched hand-over to Foundation differs.
    /// The run lengths come from a stream of their own, so a seed still plans the same workload.
    private static func enqueue(_ built: Built, _ plan: StressPlan) {
        var lengths = SplitMix64(seed: plan.seed ^ 0xBA7C_4E5)
        var run: [Foundation.Operation] = []
        var runQueue = 0
        var runLength = 0
        func flush() {
            if run.count == 1 {
                built.queues[runQueue].addOperation(run[0])
            } else if !run.isEmpty {
                built.queues[runQueue].addOperations(run, waitUntilFinished: false)
            }
            run.removeAll()
        }
        for index in plan.enqueueOrder {
            let queue = plan.operations[index].queue
            if queue != runQueue || run.count >= runLength {
                flush()
                runQueue = queue
                runLength = lengths.int(1...8)
            }
            run.append(built.operations[index])
        }
        flush()
    }

    /// Adds the operations to their queues, then sets off the planned cancels, finishes,
    /// resumes and suspensions from other threads.
    private static func launch(_ built: Built, _ plan: StressPlan) {
        for operation in built.operations
        where plan.operations[operation.index].cancel?.moment == .beforeEnqueue {
            operation.cancelAsPlanned()
            if operation.plan.cancel?.twice == true { operation.cancelAsPlanned(copy: 1) }
        }
        enqueue(built, plan)
        for operation in built.operations {
            let operationPlan = plan.operations[operation.index]
            if case .afterEnqueue(let delay)? = operationPlan.cancel?.moment {
                operation.scheduleCancel(after: delay)
            }
            if operationPlan.awaited {
                let context = built.context
                context.extraWork.countUp()
                Task {
                    await operation.untilFinished()
                    let events = operation.probe.events
                    if !operation.isFinished
                        || !events.contains(where: { if case .didFinish = $0 { true } else { false } })
                    {
                        context.violation(
                            "#\(operation.index): waitUntilFinished() returned before didFinish: \(events)")
                    }
                    context.extraWork.countDown()
                }
            }
            for delay in operationPlan.readinessQueries {
                stressAfter(delay) { [weak operation] in _ = operation?.isReady }
            }
            if let delay = operationPlan.externalFinish {
                let errors: [any Error] =
                    operationPlan.externalFinishWithError
                    ? [StressError(kind: .externalFinish, operation: operation.index)] : []
                stressAfter(delay) { [weak operation] in operation?.finish(errors: errors) }
            }
        }
        for (queue, queuePlan) in zip(built.queues, plan.queues) {
            if queuePlan.startsSuspended {
                stressAfter(queuePlan.resumeAfter) { [weak queue] in queue?.isSuspended = false }
            } else {
                toggle(queue, queuePlan.toggles[...])
            }
        }
    }

    /// Suspends and resumes `queue` as `toggles` say, one after another; it ends resumed.
    private static func toggle(_ queue: OperationQueue, _ toggles: ArraySlice<StressPlan.Toggle>) {
        guard let first = toggles.first else { return }
        let rest = toggles.dropFirst()
        stressAfter(first.after) { [weak queue] in
            queue?.isSuspended = true
            stressAfter(first.duration) { [weak queue] in
                guard let queue else { return }
                queue.isSuspended = false
                toggle(queue, rest)
            }
        }
    }

    // MARK: Checks

    private static func check(_ built: Built, _ plan: StressPlan, into outcome: inout StressOutcome) {
        for operation in built.operations {
            outcome.failures += StressChecks.check(operation, into: &outcome)
        }
        for category in 0..<plan.categoryCount {
            let name = built.context.categoryName(category)
            let count = ExclusivityController.shared.requestCount(for: name)
            if count != 0 { outcome.failures.append("S7: \(count) requests left for category \(category)") }
        }
    }

    // MARK: Stalls

    /// What each unfinished operation waits on.
    private static func stallReport(_ built: Built, _ plan: StressPlan, after seconds: Double) -> String {
        let unfinished = built.operations.filter { !$0.isFinished }
        var byState: [String: Int] = [:]
        for operation in unfinished { byState["\(operation.state)", default: 0] += 1 }
        var lines = [
            "stall: \(unfinished.count) of \(built.operations.count) operations unfinished after \(seconds) s "
                + "(by state: \(byState.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")))"
        ]
        for (index, queue) in built.queues.enumerated() {
            lines.append(
                "  queue \(index): suspended \(queue.isSuspended), max \(queue.maxConcurrentOperationCount), "
                    + "operationCount \(queue.operationCount)")
        }
        for operation in unfinished.prefix(40) {
            lines.append("  " + describe(operation, built))
        }
        if unfinished.count > 40 { lines.append("  … \(unfinished.count - 40) more") }
        return lines.joined(separator: "\n")
    }

    private static func describe(_ operation: StressOperation, _ built: Built) -> String {
        let state = operation.state  // before isReady, which may move it on
        let plan = operation.plan
        var parts = [
            "#\(operation.index) \(state)", "isReady \(operation.isReady)",
            "cancelled \(operation.isCancelled)",
            "queue \(plan.queue)", "work \(plan.work)",
        ]
        let waiting = operation.dependencies.filter { !$0.isFinished }.map { dependency in
            if let stress = dependency as? StressOperation {
                "#\(stress.index) (\(stress.state))"
            } else {
                "\(dependency.name ?? "?") (executing \(dependency.isExecuting))"
            }
        }
        if !waiting.isEmpty { parts.append("unfinished dependencies [\(waiting.joined(separator: ", "))]") }
        let unanswered = operation.conditionStatuses.filter {
            $0.current.evaluations > 0 && !$0.current.answered
        }
        if !unanswered.isEmpty { parts.append("unanswered conditions \(unanswered.map(\.name))") }
        if !plan.categories.isEmpty {
            let categories = plan.categories.map { category in
                let requests = ExclusivityController.shared.requestCount(
                    for: built.context.categoryName(category))
                let holder = built.context.holder(of: category).map { "#\($0)" } ?? "none"
                return "\(category) (executing: \(holder), requests \(requests))"
            }
            parts.append("categories [\(categories.joined(separator: ", "))]")
        }
        parts.append("events \(operation.probe.events)")
        return parts.joined(separator: ", ")
    }

    /// After a stall: resume every queue and cancel what is left, so that later batches start
    /// clean. Returns whether everything then finished.
    private static func rescue(_ built: Built, _ done: Latch) async -> Bool {
        for queue in built.queues { queue.isSuspended = false }
        for operation in built.operations where !operation.isFinished { operation.cancel() }
        return await done.wait(seconds: 10)
    }

}
