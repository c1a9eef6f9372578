import Foundation

/// A subclass's own state, read and written in the machine's own trip through the lock (see
/// `Operation/ConditionalOperation+OwnLock.swift` for the rules of such state). The cancel's own
/// trip, `cancel(recording:beforeTelling:)`, is beside `cancel()` in the public type.
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
