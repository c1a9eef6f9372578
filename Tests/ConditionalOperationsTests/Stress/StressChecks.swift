import Foundation

@testable import ConditionalOperations

/// The invariants every operation of a finished batch must satisfy.
enum StressChecks {
    /// Checks `operation` and counts what it went through; returns the broken invariants.
    static func check(_ operation: StressOperation, into outcome: inout StressOutcome) -> [String] {
        var failures: [String] = []
        func require(_ condition: Bool, _ message: @autoclosure () -> String) {
            if !condition { failures.append("#\(operation.index): \(message())") }
        }
        let plan = operation.plan
        let seen = StressEvents(operation.probe.events)
        let events = seen.all
        let errors = operation.errors.map(stressKey)
        let isCancelled = operation.isCancelled
        let cancels = seen.cancels
        let executions = seen.executions
        let started = seen.started
        failures += lifecycle(of: operation, probe: operation.probe).map { "#\(operation.index): \($0)" }

        let ownErrors = errors.filter { !$0.hasPrefix("OperationError: ") }  // unique by construction
        require(Set(ownErrors).count == ownErrors.count, "an error recorded twice: \(errors)")
        let conditionKeys = conditionFailures(operation)
        let failureKeys = Set(conditionKeys.compactMap { $0 })
        let allowed = allowedErrors(operation, failureKeys: failureKeys)
        require(
            errors.allSatisfy(allowed.contains),
            "unexpected errors \(errors.filter { !allowed.contains($0) })")
        if let cancelErrors = cancels.first {
            let everyCancelHasAnError = plan.cancel?.withError ?? true
            if everyCancelHasAnError {
                require(
                    cancelErrors.contains(where: isCancelError),
                    "S4: the first cancel's error is missing: \(cancelErrors)")
            }
        }
        let failedConditions = errors.filter(failureKeys.contains)
        if !failedConditions.isEmpty {
            require(
                !started && executions.isEmpty, "S2: executed after a failed condition \(failedConditions)")
        }
        if errors.contains(StressError(kind: .finish, operation: operation.index).description) {
            require(!executions.isEmpty, "a finish error without execute()")
        }

        // Without a cancel or an outside finish, the outcome is exact.
        if !isCancelled && plan.externalFinish == nil {
            // Several NoFailedDependencies report the same dependencies once, merged.
            let expected = Set(conditionKeys.compactMap { $0 }).sorted()
            require(
                failedConditions.sorted() == expected,
                "S2: condition failures \(failedConditions), expected \(expected)")
            if expected.isEmpty {
                require(
                    executions.count == 1 && started,
                    "S2: all conditions passed but execute() ran \(executions.count)")
                require(plan.work != .never, "an operation that never finishes finished without a cancel")
                let finishError = StressError(kind: .finish, operation: operation.index).description
                require(
                    errors.contains(finishError) == plan.finishesWithError,
                    "S6: finish errors lost: \(errors)")
                require(
                    events.count(where: { $0 == .didProduce }) == plan.produces,
                    "S10: \(events.count(where: { $0 == .didProduce })) didProduce for \(plan.produces) produced"
                )
            } else {
                require(executions.isEmpty && !started, "S2: a condition failed but it executed")
            }
            for status in operation.conditionStatuses {
                require(
                    status.current.evaluations == 1,
                    "S2: \(status.name) evaluated \(status.current.evaluations) times")
            }
        }
        for status in operation.conditionStatuses {
            let current = status.current
            require(current.evaluations <= 1, "S2: \(status.name) evaluated \(current.evaluations) times")
            if status.isSilent {
                require(current.dependencyRequests == 0, "S3: a SilentCondition's dependency was asked for")
            } else {
                require(
                    current.dependencyRequests <= 1,
                    "S3: \(status.name) asked \(current.dependencyRequests) times")
                if current.evaluations > 0 {
                    require(
                        current.dependencyRequests == 1,
                        "S3: \(status.name) evaluated but never asked for its dependency")
                }
            }
        }

        if !executions.isEmpty { outcome.executed += 1 }
        if executions.contains(where: { $0 != .executing }) { outcome.lateExecutes += 1 }
        if isCancelled { outcome.cancelled += 1 }
        if !failedConditions.isEmpty { outcome.conditionFailures += 1 }
        if errors.contains(where: { $0.hasPrefix("OperationError: timed out") }) { outcome.timedOut += 1 }
        outcome.extraOperations += plan.produces
        return failures
    }

    /// The invariants of every finished operation, whatever ended it: it finished exactly once,
    /// its callbacks came once each, in S1's order and never overlapping, and its errors are the
    /// same in `errors`, the hook and `operationDidFinish` (S1, S4, S5). Returns the broken ones.
    static func lifecycle(of operation: ConditionalOperation, probe: StressProbe) -> [String] {
        var failures = lifecycle(of: probe)
        func require(_ condition: Bool, _ message: @autoclosure () -> String) {
            if !condition { failures.append(message()) }
        }
        let seen = StressEvents(probe.events)
        let errors = operation.errors.map(stressKey)
        let isCancelled = operation.isCancelled
        require(operation.state == .finished && operation.isFinished, "S1: ends in \(operation.state)")
        require(
            seen.cancels.isEmpty != isCancelled,
            "S4/S5: isCancelled \(isCancelled) but \(seen.cancels.count) didCancel")
        require(
            seen.hooks.first == errors,
            "finished(errors:) got \(seen.hooks.first ?? []) but errors is \(errors)")
        if let cancelErrors = seen.cancels.first {
            require(
                Array(errors.prefix(cancelErrors.count)) == cancelErrors,
                "S4: didCancel errors \(cancelErrors) not a prefix of \(errors)")
        }
        return failures
    }

    /// What the probe alone tells of an operation that may be gone: the callbacks came once each,
    /// in S1's order, never overlapping, and the hook and `operationDidFinish` got the same errors.
    static func lifecycle(of probe: StressProbe) -> [String] {
        var failures: [String] = []
        func require(_ condition: Bool, _ message: @autoclosure () -> String) {
            if !condition { failures.append(message()) }
        }
        let seen = StressEvents(probe.events)
        let events = seen.all
        require(seen.hooks.count == 1, "S1: finished(errors:) ran \(seen.hooks.count) times")
        require(seen.finishes.count == 1, "S1: operationDidFinish \(seen.finishes.count) times")
        require(events.count(where: { $0 == .completionBlock }) == 1, "completion block not run exactly once")
        require(seen.executions.count <= 1, "S1: execute() ran \(seen.executions.count) times")
        require(seen.cancels.count <= 1, "S1: operationDidCancel \(seen.cancels.count) times")
        require(probe.overlaps.isEmpty, "S1: \(probe.overlaps)")
        require(isInOrder(events), "S1: callbacks out of order: \(events)")
        if let execute = events.firstIndex(where: { if case .execute = $0 { true } else { false } }) {
            require(
                seen.started && events.firstIndex(of: .didStart)! < execute,
                "S1: execute() without didStart first")
        }
        require(
            seen.finishes.first == seen.hooks.first,
            "operationDidFinish got \(seen.finishes.first ?? []) but finished(errors:) \(seen.hooks.first ?? [])"
        )
        return failures
    }

    /// didStart? didProduce* didCancel? hook didFinish (`execute()` and the completion block
    /// may come anywhere).
    private static func isInOrder(_ events: [StressProbe.Event]) -> Bool {
        var phase = 0  // 0 nothing, 1 started/producing, 2 cancelled, 3 hook, 4 finished
        for event in events {
            let allowed: Bool
            switch event {
            case .didStart:
                allowed = phase == 0
                phase = 1
            case .didProduce:
                allowed = phase == 1
            case .didCancel:
                allowed = phase <= 1
                phase = 2
            case .hook:
                allowed = phase <= 2
                phase = 3
            case .didFinish:
                allowed = phase == 3
                phase = 4
            case .execute, .completionBlock:
                allowed = true
            }
            if !allowed { return false }
        }
        return phase == 4
    }

    private static func isCancelError(_ key: String) -> Bool {
        key.hasPrefix("cancel#") || key.hasPrefix("OperationError: timed out")
    }

    /// For each condition (by position), the error it fails with once evaluated, or `nil` if it passes.
    private static func conditionFailures(_ operation: StressOperation) -> [String?] {
        let index = operation.index
        return operation.plan.conditions.enumerated().map { position, condition -> String? in
            switch condition {
            case .probe(let probe, let wrapper):
                if wrapper == .negated || wrapper == .silentNegated {
                    guard probe.satisfied else { return nil }
                    return stressKey(OperationError.conditionFailed(name: "Not<probe#\(index).\(position)>"))
                }
                return probe.satisfied
                    ? nil : StressError(kind: .condition, operation: index, index: position).description
            case .block(let value):
                return value
                    ? nil : stressKey(OperationError.conditionFailed(name: "block#\(index).\(position)"))
            case .throwing:
                return StressError(kind: .thrown, operation: index, index: position).description
            case .noFailedDependencies(let ignoringCancellations):
                var failed: [OperationError.FailedDependency] = []
                var cancelled: [OperationError.FailedDependency] = []
                for dependency in operation.dependencies {
                    // S9 (added): a timed-out dependency failed, it was not merely cancelled.
                    let timedOut = ((dependency as? ConditionalOperation)?.errors ?? []).contains {
                        stressKey($0).hasPrefix("OperationError: timed out")
                    }
                    if dependency.isCancelled && !timedOut {
                        cancelled.append(OperationError.FailedDependency(dependency))
                    } else if let conditional = dependency as? ConditionalOperation, conditional.failed {
                        failed.append(OperationError.FailedDependency(dependency))
                    }
                }
                if !failed.isEmpty { return stressKey(OperationError.dependenciesFailed(failed)) }
                if !cancelled.isEmpty && !ignoringCancellations {
                    return stressKey(OperationError.dependenciesCancelled(cancelled))
                }
                return nil
            case .exclusive:
                return nil
            }
        }
    }

    private static func allowedErrors(_ operation: StressOperation, failureKeys: Set<String>) -> Set<String> {
        let plan = operation.plan
        let index = operation.index
        var allowed = failureKeys
        if plan.finishesWithError { allowed.insert(StressError(kind: .finish, operation: index).description) }
        if let cancel = plan.cancel, cancel.withError {
            allowed.insert(StressError(kind: .cancel, operation: index).description)
            if cancel.twice {
                allowed.insert(StressError(kind: .cancel, operation: index, index: 1).description)
            }
        }
        if let timeout = plan.timeout {
            allowed.insert(stressKey(OperationError.timedOut(Duration.microseconds(timeout).timeInterval)))
        }
        if plan.externalFinishWithError {
            allowed.insert(StressError(kind: .externalFinish, operation: index).description)
        }
        return allowed
    }
}

/// A probe's events, sorted by kind.
struct StressEvents {
    let all: [StressProbe.Event]
    let hooks: [[String]]
    let finishes: [[String]]
    let cancels: [[String]]
    let executions: [ConditionalOperation.State]

    init(_ events: [StressProbe.Event]) {
        all = events
        hooks = events.compactMap { if case .hook(let keys) = $0 { keys } else { nil } }
        finishes = events.compactMap { if case .didFinish(let keys) = $0 { keys } else { nil } }
        cancels = events.compactMap { if case .didCancel(let keys) = $0 { keys } else { nil } }
        executions = events.compactMap { if case .execute(let state) = $0 { state } else { nil } }
    }

    var started: Bool { all.contains(.didStart) }
}
