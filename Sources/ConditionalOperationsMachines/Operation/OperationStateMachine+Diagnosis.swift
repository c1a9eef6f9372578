/// What diagnostics read of the machine (``OperationDiagnosis``): under the lock only what the
/// phase holds; names, dependencies and queues are read by the caller, unlocked.
extension OperationStateMachine {
    public enum Waiting: Sendable {
        /// Not admitted yet: no queue, no `start()`, no query that found every dependency finished.
        case admission
        case dependencies
        /// The conditions being evaluated, and which of them answered.
        case conditions([Host.Condition], AnsweredConditions, since: Uptime)
        case categories(since: Uptime)
        /// S27: the operation it joined, named by ``CoalescingEntries``.
        case joined
        /// Ready: waiting for `start()`.
        case start
        /// `since` is `nil` while `execute()` is due but not yet called.
        case execution(since: Uptime?)
        /// Started without executing: what it runs finishes first (S11).
        case draining
        case finishing
        case finished(Ending)
    }

    public struct DiagnosticSnapshot: Sendable {
        public var waiting: Waiting
        public var state: OperationState
        public var isCancelled: Bool
        public var errors: [any Error]
        public var owner: Host.Queue?
        /// Not admitted yet: the operation running it (a group), which may not have started either.
        public var parent: Host.Operation?

        @inlinable init(
            waiting: Waiting, state: OperationState, isCancelled: Bool, errors: [any Error],
            owner: Host.Queue?,
            parent: Host.Operation?
        ) {
            self.waiting = waiting
            self.state = state
            self.isCancelled = isCancelled
            self.errors = errors
            self.owner = owner
            self.parent = parent
        }
    }

    /// Read under the lock; the caller lets go of what it holds (conditions, the owner) unlocked.
    @inlinable public func diagnosticSnapshot() -> DiagnosticSnapshot {
        let waiting: Waiting
        switch phase {
        case .initialized: waiting = .admission
        case .pending: waiting = .dependencies
        case .evaluating(let evaluation, _):
            waiting = .conditions(conditions, evaluation.answered, since: evaluation.began)
        case .acquiring(let acquisition, _): waiting = .categories(since: acquisition.began)
        case .joining: waiting = .joined
        case .ready: waiting = awaitsLateDependency ? .dependencies : .start
        case .executing(.due): waiting = .execution(since: nil)
        case .executing(.called(_, let since)): waiting = .execution(since: since)
        case .draining, .executing(.draining): waiting = .draining
        case .finishing: waiting = .finishing
        case .finished(let ending): waiting = .finished(ending)
        }
        let parent: Host.Operation? = if case .admission = waiting { exclusivityParent } else { nil }
        return DiagnosticSnapshot(
            waiting: waiting, state: state, isCancelled: isCancelled, errors: reportedErrors, owner: owner,
            parent: parent)
    }
}
