/// S9: a `ConditionalOperationQueue` breaks a dependency cycle among its operations: each finishes
/// with an error, without executing.
extension OperationStateMachine {
    /// The owner found the operation in a dependency cycle: it will finish with `error`, without
    /// executing. Every operation of the cycle is marked before any is released
    /// (``breakCycle()``): one finishing first must not let another execute.
    @inlinable public mutating func markInCycle(_ error: any Error) {
        switch phase {
        case .initialized, .pending, .evaluating, .acquiring, .joining, .ready:
            // Not started: it must not execute.
            guard !isFinishRequested else { return }
            record(.finish)
            outcome.record(error)
        case .executing, .draining, .finishing, .finished:
            // Started already: too late to stop it.
            return
        }
    }

    /// Makes an operation marked by ``markInCycle(_:)`` ready whatever its dependencies.
    @inlinable public mutating func breakCycle() -> Followup {
        switch phase {
        case .initialized, .pending, .evaluating, .acquiring, .joining:
            // Its dependencies (or the operation it joined, S27) would never finish: ready now, it
            // finishes once started.
            guard isFinishRequested else { return .nothing }
            let withdraws = abandonConditions()
            return followup(releasing: withdraws, becomeReady(.execute, context: .cancel))
        case .ready, .executing, .draining, .finishing, .finished:
            // Ready already.
            return .nothing
        }
    }
}
