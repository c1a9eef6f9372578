/// S9: a dependency added once the operation passed its own dependencies (while its conditions
/// answer, while it waits for its categories, or once ready and not yet started) is honoured as
/// Foundation honours it for any operation: the operation does not start before it finished.
///
/// What the operation was granted stays: its conditions are not evaluated again, and the
/// categories it holds stay held while it waits (giving them back and asking again would put it
/// behind every later request, S7). The phases past the operation's own dependencies record it
/// (``LateDependency``); readiness queries and the start then read Foundation's answer.
extension OperationStateMachine {
    /// What the phase past the operation's own dependencies carries, the one it is in or the
    /// first it enters (from `joining`, with nothing of its dependencies: it waited for none;
    /// once launched, the start alone, which no event past the launch reads).
    /// Inlined: every operation enters `ready` with it.
    @inline(__always)
    @inlinable public var passed: Passed {
        switch phase {
        case .evaluating(_, let passed), .acquiring(_, let passed), .ready(_, let passed): passed
        case .initialized(let asked, let count, _), .pending(_, let asked, let count):
            Passed(asked, LateDependency(count))
        case .joining(let asked): Passed(asked, .cleared)
        case .executing, .draining, .finishing, .finished: Passed(.start, .cleared)
        }
    }

    /// A dependency added late may not have finished: it must not start before Foundation says.
    /// A cancelled operation waits for no dependency, as in Foundation.
    @inlinable public var awaitsLateDependency: Bool {
        switch phase {
        case .evaluating(_, let passed), .acquiring(_, let passed), .ready(_, let passed):
            passed.awaitsLateDependency && !isCancelled
        case .initialized, .pending, .joining, .executing, .draining, .finishing, .finished: false
        }
    }

    /// Records in a phase past the operation's own dependencies what a dependency added late asks.
    @inlinable mutating func record(_ late: LateDependency) {
        var passed = passed
        passed.late = late
        switch phase {
        case .evaluating(let evaluation, _): enter(.evaluating(evaluation, passed))
        case .acquiring(let acquisition, _): enter(.acquiring(acquisition, passed))
        case .ready(let verdict, _): enter(.ready(verdict, passed))
        case .initialized, .pending, .joining, .executing, .draining, .finishing, .finished:
            fatalError("record(\(late)) in phase \(phase): its own dependencies were not passed")
        }
    }

    /// A dependency added late is awaited. In a phase past the operation's own dependencies.
    @inlinable mutating func awaitLateDependency() {
        var late = passed.late
        guard late.awaited == .none else { return }
        late.awaited = .awaited
        record(late)
    }

    /// `addDependency(_:)` was called, after Foundation counted the dependency. Returns what the
    /// caller performs: a plain queue that read `isReady` before must read it again.
    @inlinable public mutating func dependencyAdded() -> Followup {
        switch phase {
        case .initialized, .pending:
            // Waiting for its dependencies: Foundation counts this one with the others.
            return .nothing
        case .evaluating, .acquiring:
            // Becoming ready will not be enough (unless cancelled: as in Foundation, it then waits for nothing).
            if !isCancelled { awaitLateDependency() }
            return .nothing
        case .ready(_, let passed) where isCancelled || isStartRequested && passed.late.awaited == .none:
            // Cancelled: it waits for nothing. Started: it is launching already.
            return .nothing
        case .ready:
            // Its owner checks at the start; a plain queue may have stored `true`: tell it again.
            awaitLateDependency()
            return owner == nil && !isStartRequested ? .announceReady : .nothing
        case .joining:
            // It waits for the operation it joined, not for dependencies (S27).
            return .nothing
        case .executing, .draining, .finishing, .finished:
            // Started: too late, as in Foundation.
            return .nothing
        }
    }

    /// `removeDependency(_:)` is about to take out a dependency that has not finished. Returns
    /// whether the operation waits for its dependencies still: Foundation's count then keeps the
    /// removed one (``DependencyCount/stale``), and the caller has the others watched.
    @inlinable public mutating func dependencyRemoved() -> Bool {
        switch phase {
        case .initialized(let asked, _, let deferred):
            // Waiting for its dependencies (a cancelled operation is `ready`): read them from now on.
            enter(.initialized(asked, .stale, deferred))
            return true
        case .pending(let stage, let asked, _):
            // The same, admitted.
            enter(.pending(stage, asked, .stale))
            return true
        case .evaluating, .acquiring, .ready:
            // Past its dependencies: only one added late is waited for, unless cancelled.
            guard awaitsLateDependency else { return false }
            var late = passed.late
            late.count = .stale
            record(late)
            return true
        case .joining:
            // Joined another operation (S27): it waits for that one alone.
            return false
        case .executing, .draining, .finishing, .finished:
            // Started: it waits for nothing.
            return false
        }
    }

    public enum CheckedStartAction: Equatable, Sendable {
        /// `start()` was called before: a misuse (S13).
        case misuse
        case launched(Followup)
        /// A dependency added late has not finished: the owner's start is declined, and the
        /// owner takes back the slot it gave; the operation is handed over again once ready.
        case declined(Host.Queue)
        /// Started by hand before a dependency added late finished: it launches once it did.
        case waiting
    }

    /// The start of ``StartAction/checkDependencies``, with Foundation's answer.
    @inlinable public mutating func startChecked(dependenciesFinished: Bool) -> CheckedStartAction {
        guard !isStartRequested else { return .misuse }
        switch phase {
        case .ready where awaitsLateDependency && !dependenciesFinished:
            // Not yet: its owner gives it a slot again once the dependency finished.
            guard let owner else {
                record(.start)
                return .waiting
            }
            var late = passed.late
            late.awaited = .startDeclined
            record(late)
            return .declined(owner)
        case .ready:
            // Every dependency finished, or a cancel let go of them.
            record(.start)
            return .launched(followup(.launched(launch())))
        case .initialized, .pending, .evaluating, .acquiring, .joining, .executing, .draining, .finishing,
            .finished:
            fatalError("startChecked in phase \(phase): only a ready operation checks its dependencies")
        }
    }

    /// The dependencies added late finished (the phase no longer records them): what its start,
    /// or its readiness, calls for now. `declined`: its owner's start was declined.
    @inlinable mutating func lateDependenciesFinished(declined: Bool, context: Context) -> Followup {
        // The owner still holds it to start it, unless it declined a start: then it is handed over.
        if let owner { return declined ? .handOver(to: owner) : .nothing }
        if isStartRequested { return followup(context.canLaunch ? .launched(launch()) : .launchLater) }
        guard context.answersQuery else { return .announceReady }
        // Foundation's count may have been stale before the late dependencies were cleared.
        return announcements.becameReadyAfterAnsweringNotReady(repairedByRetest: false)
            ? .reannounceLater : .nothing
    }

    /// A cancel lets go of the dependencies added late, as Foundation forgets a cancelled
    /// operation's dependencies; returns the owner to hand the operation to if it declined a start.
    @inlinable mutating func dropLateDependencies() -> Host.Queue? {
        guard case .ready(let verdict, var passed) = phase, passed.late.awaited != .none else { return nil }
        let declined = passed.late.awaited == .startDeclined
        passed.late = passed.late.noneAwaited
        enter(.ready(verdict, passed))
        return declined ? owner : nil
    }
}
