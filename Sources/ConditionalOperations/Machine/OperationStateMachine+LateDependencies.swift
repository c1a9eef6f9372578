/// S9: a dependency added once the operation passed its own dependencies (while its conditions
/// answer, while it waits for its categories, or once ready and not yet started) is honoured as
/// Foundation honours it for any operation: the operation does not start before it finished.
///
/// What the operation was granted stays: its conditions are not evaluated again, and the
/// categories it holds stay held while it waits (giving them back and asking again would put it
/// behind every later request, S7). The phase records the dependency among its ``Requests``
/// (``Requests/lateDependency``); readiness queries and the start then read Foundation's answer.
extension OperationStateMachine {
    /// A dependency added late may not have finished: it must not start before Foundation says.
    /// A cancelled operation waits for no dependency, as in Foundation. (The events on the way of
    /// every operation test the phase's own requests instead: one switch fewer.)
    var awaitsLateDependency: Bool { requests.contains(.lateDependency) && !isCancelled }

    /// `addDependency(_:)` was called, after Foundation counted the dependency. Returns what the
    /// caller performs: a plain queue that read `isReady` before must read it again.
    mutating func dependencyAdded() -> Followup {
        switch phase {
        case .initialized, .pending:
            // Waiting for its dependencies: Foundation counts this one with the others.
            return .nothing
        case .evaluating, .acquiring:
            // Becoming ready will not be enough (unless cancelled: as in Foundation, it then waits for nothing).
            if !isCancelled { record(.lateDependency) }
            return .nothing
        case .ready where isCancelled || isStartRequested && !requests.contains(.lateDependency):
            // Cancelled: it waits for nothing. Started: it is launching already.
            return .nothing
        case .ready:
            // Its owner checks at the start; a plain queue may have stored `true`: tell it again.
            record(.lateDependency)
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
    /// removed one (``Requests/dependencyRemoved``), and the caller has the others watched.
    mutating func dependencyRemoved() -> Bool {
        switch phase {
        case .initialized, .pending:
            // Waiting for its dependencies (a cancelled operation is `ready`): read them from now on.
            record(.dependencyRemoved)
            return true
        case .evaluating, .acquiring, .ready:
            // Past its dependencies: only one added late is waited for, unless cancelled.
            guard awaitsLateDependency else { return false }
            record(.dependencyRemoved)
            return true
        case .joining:
            // Joined another operation (S27): it waits for that one alone.
            return false
        case .executing, .draining, .finishing, .finished:
            // Started: it waits for nothing.
            return false
        }
    }

    enum CheckedStartAction: Equatable {
        /// `start()` was called before: a misuse (S13).
        case misuse
        case launched(Followup)
        /// A dependency added late has not finished: the owner's start is declined, and the
        /// owner takes back the slot it gave; the operation is handed over again once ready.
        case declined(ConditionalOperationQueue)
        /// Started by hand before a dependency added late finished: it launches once it did.
        case waiting
    }

    /// The start of ``StartAction/checkDependencies``, with Foundation's answer.
    mutating func startChecked(dependenciesFinished: Bool) -> CheckedStartAction {
        guard !isStartRequested else { return .misuse }
        switch phase {
        case .ready where awaitsLateDependency && !dependenciesFinished:
            // Not yet: its owner gives it a slot again once the dependency finished.
            guard let owner else {
                record(.start)
                return .waiting
            }
            record(.startDeclined)
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
    mutating func lateDependenciesFinished(declined: Bool, context: Context) -> Followup {
        // The owner still holds it to start it, unless it declined a start: then it is handed over.
        if let owner { return declined ? .handOver(to: owner) : .nothing }
        if isStartRequested { return followup(context.canLaunch ? .launched(launch()) : .launchLater) }
        guard context.answersQuery else { return .announceReady }
        return announcements.becameReadyAfterAnsweringNotReady() ? .reannounceLater : .nothing
    }

    /// A cancel lets go of the dependencies added late, as Foundation forgets a cancelled
    /// operation's dependencies; returns the owner to hand the operation to if it declined a start.
    mutating func dropLateDependencies() -> ConditionalOperationQueue? {
        guard case .ready(let verdict, let requests) = phase, requests.contains(.lateDependency) else {
            return nil
        }
        enter(.ready(verdict, requests.subtracting([.lateDependency, .startDeclined, .dependencyRemoved])))
        return requests.contains(.startDeclined) ? owner : nil
    }
}
