/// The `cancel` event (S4, S5): one `switch` over the phase. What a cancel leaves, whether it took
/// effect and its errors, is the ``Outcome`` (`+Outcome`).
extension OperationStateMachine {
    public enum CancelAction: Equatable, Sendable {
        /// Cancelled before, or finishing began: nothing changes (but a second cancel's error).
        case ignored
        case cancelled(Followup)
    }

    /// A cancel, with the error of the `cancel(with:)` that called it, if any. The error is
    /// recorded in this same event, and only if the cancel counts, so that a finish comes before
    /// both or after both: an operation that finished first is not cancelled and has no cancel
    /// error. Every `cancel(with:)` before finishing adds its error (S4), also once cancelled.
    @inlinable public mutating func cancel(with error: (any Error)? = nil, finishesWhenCancelled: Bool)
        -> CancelAction
    {
        guard !isCancelled else {
            // `operationDidCancel` once (S4).
            if let error, state < .finishing { outcome.record(error) }
            return .ignored
        }
        switch phase {
        case .initialized, .pending, .evaluating, .acquiring, .joining:
            // S4: ready at once, abandoning dependencies and conditions, as Foundation does (a
            // joiner, the operation it joined: S27).
            markCancelled(adding: error)
            let told = queueEffect(.didCancel(errors))
            let withdraws = abandonConditions()
            return .cancelled(
                followup(releasing: withdraws, told: told, becomeReady(.execute, context: .cancel)))
        case .ready:
            // S4: a start made already launches it, else a queue is told again that it is ready
            // (its owner, if it declined a start for a dependency added late: S9).
            markCancelled(adding: error)
            let declined = dropLateDependencies()
            let told = queueEffect(.didCancel(errors))
            if isStartRequested { return .cancelled(followup(told: told, .launched(launch()))) }
            return .cancelled(followup(told: told, .readiness(declined.map { .handOver($0) } ?? .announce)))
        case .executing(let execution):
            // S5: it finishes at once, unless it asked to finish itself; before `execute()` was
            // called (`didStart` is being delivered), without executing (S1).
            markCancelled(adding: error)
            let told = queueEffect(.didCancel(errors))
            guard finishesWhenCancelled else { return .cancelled(followup(told: told)) }
            let ending: Ending = execution.isCalled ? .executed : .cancelledAsItStarted
            let delivers = queueFinish(ending, thread: execution.thread)
            return .cancelled(followup(told: told || delivers))
        case .draining:
            // It finishes once what it runs finished.
            markCancelled(adding: error)
            return .cancelled(followup(told: queueEffect(.didCancel(errors))))
        case .finishing, .finished:
            // Finishing began: a cancel changes nothing, and its error is not recorded.
            return .ignored
        }
    }
}
