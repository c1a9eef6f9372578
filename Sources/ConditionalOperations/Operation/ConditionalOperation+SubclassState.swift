import Foundation

/// A subclass's own state, read and written in the machine's own trip through the lock (see
/// `Operation/ConditionalOperation+OwnLock.swift` for the rules of such state).
extension ConditionalOperation {
    /// ``finish(errors:)``, with `record` run first in the same trip through the lock, told
    /// whether an earlier finish already won (finishing began, or `finish` was called before the
    /// operation executed): a subclass stores what it finishes with (S6: the first finish wins),
    /// or takes out what it no longer needs, without a trip of its own. `record` follows the rules
    /// of ``withOwnLock(_:)``; what it returns is handed back, to be dropped once unlocked.
    @discardableResult
    @inline(__always)
    func finish<Recorded>(
        errors: [any Error], recording record: (_ earlierFinishWon: Bool) -> Recorded
    ) -> Recorded {
        let (action, recorded) = machine.withLock { machine in
            let recorded = record(machine.state >= .finishing || machine.isFinishRequested)
            return (machine.finish(errors: errors), recorded)
        }
        perform(action)
        return recorded
    }

    /// The base `cancel()`, with `record` run in the same trip through the lock, told whether
    /// this cancel counts (the first, before finishing began): a subclass cancels its own state
    /// (a composite its attempts) in the cancel's own trip, so that whatever races the cancel
    /// comes before both or after both. `record` follows the rules of ``withOwnLock(_:)``; what
    /// it returns is handed back, to be acted on once unlocked.
    ///
    /// `prepare` runs once unlocked, before anything of the cancel is told (observers, KVO, the
    /// progress): what must hold before user code can react to the cancel (a group holds its
    /// children's queue suspended) is set there.
    ///
    /// `package`: the networking module of this package (`DataTaskOperation`) cancels its task
    /// this way; it is not API for the package's users.
    @discardableResult
    @inline(__always)
    package func cancel<Recorded>(
        recording record: (_ counts: Bool) -> Recorded, beforeTelling prepare: (Recorded) -> Void = { _ in }
    ) -> Recorded {
        // The error of the `cancel(with:)` that called this on this thread, if any: recorded in
        // the cancel's own trip through the lock, so that a finish comes before both or after both.
        let error = CancelErrorHandoff.take(for: self)
        let finishes = finishesWhenCancelled
        // Where `isCancelled` is observed, `willChangeValue` goes before the value changes: one
        // trip more to learn whether it will (a cancel that loses a race to another is told twice).
        let announces = ObservedProperty.isCancelled.isPosted && !isCancelled
        if announces { willChange(.isCancelled) }
        let (action, deferred, recorded) = machine.withLock { machine in
            let deferred = machine.takeDeferredDependencies()
            let action = machine.cancel(with: error, finishesWhenCancelled: finishes)
            let counts: Bool
            if case .ignored = action { counts = false } else { counts = true }
            return (action, deferred, record(counts))
        }
        if announces { didChange(.isCancelled) }
        prepare(recorded)
        perform(action, adding: deferred)
        return recorded
    }

    /// The state, the errors and whether it was cancelled, read at once with what `read` reads of
    /// a subclass's own state, in one trip through the lock. `read` follows the rules of
    /// ``withOwnLock(_:)``.
    @inline(__always)
    func finishingSnapshot<Own>(reading read: () -> Own) -> (
        state: State, errors: [any Error], isCancelled: Bool, own: Own
    ) {
        machine.withLock { (State($0.state), $0.reportedErrors, $0.isCancelled, read()) }
    }
}
