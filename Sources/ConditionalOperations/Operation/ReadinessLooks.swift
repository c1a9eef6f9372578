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
/// Each operation is looked at once a whole delay has passed since it was listed, and at most two.
/// The look itself is cheap (most find the operation started, or stay silent); an operation that
/// must announce itself again does so on a Dispatch work item of its own, at its own quality of
/// service, so that one whose announcement is slow holds back no other.
final class ReadinessLooks: @unchecked Sendable {  // mutable state: behind `state`'s lock
    static let shared = ReadinessLooks()

    private struct State {
        /// Looked at when the timer set fires: listed before it was set, or as it was set.
        var due: [ConditionalOperation] = []
        /// Listed while it runs: looked at when the next one fires.
        var next: [ConditionalOperation] = []
        var isTimerSet = false
    }

    private let state = Locked(State())

    /// `operation` looks again at its readiness once the delay passed
    /// (``ConditionalOperation/reannounceIfDue()``).
    func add(_ operation: ConditionalOperation) {
        let setsTimer = state.withLock { state in
            guard state.isTimerSet else {
                state.due.append(operation)
                state.isTimerSet = true
                return true
            }
            state.next.append(operation)
            return false
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
        // Outside the lock: the last reference to an operation may go here.
        for operation in due { operation.reannounceIfDue() }
    }
}
