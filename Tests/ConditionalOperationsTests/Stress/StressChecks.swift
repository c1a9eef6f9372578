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
        let events = operation.probe.events
        let errors = operation.errors.map(stressKey)
        let isCancelled = operation.isCancelled

        // Exactly once (S1).
        require(operation.state == .finished && operation.isFinished, "S1: ends in \(operation.state)")
        let hooks = events.compactMap { if case .hook(let keys) = $0 { keys } else { nil } }
        let finishes = events.compactMap { if case .didFinish(let keys) = $0 { keys } else { nil } }
        let cancels = events.compactMap { if case .didCancel(let keys) = $0 { keys } else { nil } }
        let executions = events.compactMap { if case .execute(let state) = $0 { state } else { nil } }
        require(hooks.count == 1, "S1: finished(errors:) ran \(hooks.count) times")
        require(finishes.count == 1, "S1: operationDidFinish \(finishes.count) times")
        require(events.count(where: { $0 == .completionBlock }) == 1, "completion block not run exactly once")
        require(executions.count <= 1, "S1: execute() ran \(executions.count) times")
        require(cancels.count <= 1, "S1: operationDidCancel \(cancels.count) times")
        require(operation.probe.overlaps.isEmpty, "S1: \(operation.probe.overlaps)")

        // Order (S1): didStart? didProduce* didCancel? didFinish, the hook before didFinish.
        let observed = events.filter {
            switch $0 {
            case .execute, .completionBlock: false
            default: true
            }
        }
        require(isInOrder(observed), "S1: callbacks out of order: \(events)")
        let started = events.contains(.didStart)
        if let execute = events.firstIndex(where: { if case .execute = $0 { true } else { false } }) {
            require(
                started && events.firstIndex(of: .didStart)! < execute, "S1: execute() without didStart first"
            )
        }
        require(
            cancels.isEmpty != isCancelled, "S4/S5: isCancelled \(isCancelled) but \(cancels.count) didCancel"
        )

        // Errors: the same everywhere, each once, each one this operation could have produced.
        require(hooks.first == errors, "finished(errors:) got \(hooks.first ?? []) but errors is \(errors)")
        require(
            finishes.first == errors, "operationDidFinish got \(finishes.first ?? []) but errors is \(errors)"
        )
        let ownErrors = errors.filter { !$0.hasPrefix("OperationError: ") }  // unique by construction
        require(Set(ownErrors).count == ownErrors.count, "an error recorded twice: \(errors)")
        let conditionKeys = conditionFailures(operation)
        let failureKeys = Set(conditionKeys.compactMap { $0 })
        let allowed = allowedErrors(operation, failureKeys: failureKeys)
        require(
            errors.allSatisfy(allowed.contains),
            "unexpected errors \(errors.filter { !allowed.contains($0) })")
        if let cancelErrors = cancels.first {
            require(
                Array(errors.prefix(cancelErrors.count)) == cancelErrors,
                "S4: didCancel errors \(cancelErrors) not a prefix of \(errors)")
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

    /// didStart? didProduce* didCancel? hook didFinish
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
            allowed.insert(stressKey(OperationError.timedOut(Double(timeout) / 1e6)))
        }
        if plan.externalFinishWithError {
            allowed.insert(StressError(kind: .externalFinish, operation: index).description)
        }
        return allowed
    }
}
