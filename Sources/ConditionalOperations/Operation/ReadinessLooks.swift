import ConditionalOperationsMachines
import Dispatch
import Foundation

/// Where operations wait for their look again at their readiness (`reannounceLater`,
/// ``ReadinessAnnouncements``), a millisecond or two after they became ready inside a query: one
/// timer for all of them, not one each. A fan-out of thousands of operations made ready by one
/// finish becomes ready on the thread that finished it, inside Foundation's own reads, one after
/// another: a timer each cost that thread more than the rest of becoming ready, while Foundation's
/// queue waited for it to go on.
///
/// Each operation is looked at once a whole delay has passed since it was listed, and at most two:
/// those listed while the timer runs wait for the next one.
final class ReadinessLooks: @unchecked Sendable {  // mutable state: behind `state`'s lock
    static let shared = ReadinessLooks()

    private struct State {
        /// Listed before the timer that runs now was set: looked at when it fires.
        var due: [ConditionalOperation] = []
        /// Listed since: looked at when the next one fires.
        var next: [ConditionalOperation] = []
        var isTimerSet = false
    }

    private let state = Locked(State())

    /// `operation` looks again at its readiness (``ConditionalOperation/reannounce()``) once the
    /// delay passed.
    func add(_ operation: ConditionalOperation) {
        let setsTimer = state.withLock { state in
            state.next.append(operation)
            defer { state.isTimerSet = true }
            return !state.isTimerSet
        }
        if setsTimer { setTimer() }
    }

    private func setTimer() {
        let deadline = DispatchTime.now() + ReadinessAnnouncements.reannouncementDelay
        DispatchQueue.global().asyncAfter(deadline: deadline) { self.fire() }
    }

    private func fire() {
        let (due, setsTimer) = state.withLock { state in
            let due = state.due
            state.due = state.next
            state.next = []
            state.isTimerSet = !state.due.isEmpty
            return (due, state.isTimerSet)
        }
        if setsTimer { setTimer() }
        // Outside the lock: an operation's look may announce it, and the last reference to one
        // may go here.
        for operation in due { operation.reannounce() }
    }
}
