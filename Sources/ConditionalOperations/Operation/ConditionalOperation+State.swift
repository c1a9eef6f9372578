import ConditionalOperationsMachines

extension ConditionalOperation {
    /// Where an operation is in its life. States only move forward.
    ///
    /// ```
    /// initialized → pending → evaluatingConditions → ready → executing → finishing → finished
    /// ```
    /// A cancelled, failed or early-finished operation goes from `ready` straight to `finishing`
    /// when it is started, without executing.
    public enum State: Int, Comparable, Sendable, CustomStringConvertible {
        /// Created, not yet admitted by a queue, a `start()` or a readiness query.
        case initialized
        /// Admitted, waiting for its dependencies to finish.
        case pending
        /// Every dependency finished; the conditions are being evaluated.
        case evaluatingConditions
        /// Conditions done (or the operation was cancelled): `isReady` is `true`.
        case ready
        /// `start()` ran: observers got `operationDidStart` and `execute()` runs.
        case executing
        /// `finish` was called: the `finished(errors:)` hook and `operationDidFinish` observers run.
        case finishing
        /// `isFinished` is `true`. Final.
        case finished

        /// Whether `lhs` comes before `rhs` in the operation's life: `state >= .ready` asks whether
        /// an operation got that far.
        public static func < (lhs: State, rhs: State) -> Bool { lhs.rawValue < rhs.rawValue }

        /// The case's name, as diagnoses and logs show it: `evaluatingConditions`.
        public var description: String {
            switch self {
            case .initialized: "initialized"
            case .pending: "pending"
            case .evaluatingConditions: "evaluatingConditions"
            case .ready: "ready"
            case .executing: "executing"
            case .finishing: "finishing"
            case .finished: "finished"
            }
        }
    }
}

extension ConditionalOperation {
    /// Where the operation is in its life.
    public var state: State { State(machine.withLock { $0.state }) }

    /// Every error so far: cancel errors, condition failures and finish errors, in that arrival order.
    public var errors: [any Error] { machine.withLock { $0.reportedErrors } }

    /// `true` once the operation finished (or is finishing) with at least one error.
    public var failed: Bool { machine.withLock { $0.failed } }

    /// `true` once a condition answered ``OperationConditionResult/skipped`` and none failed, and the
    /// operation then finished without executing and without an error (S17): it had nothing to do.
    /// `failed` and `isCancelled` are `false`; a cancel or an early `finish` beats a skip.
    public var isSkipped: Bool { machine.withLock { $0.isSkipped } }
}
