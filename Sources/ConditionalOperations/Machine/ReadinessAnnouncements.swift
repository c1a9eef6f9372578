import Dispatch

/// What answers swift-corelibs-foundation's cached `isReady` (LINUX-FOUNDATION.md, "How the
/// queue hears about state").
///
/// The queue stores the answer of every `isReady` query and dispatches only operations whose
/// stored answer is `true`, with no timer to look again. The answers of concurrent queries are
/// stored in whatever order their threads get there: a `false` read before the operation became
/// ready can overwrite the `true` of the query, or of the KVO announcement, that made it ready,
/// and the queue then never starts it. So readiness is announced again, from another thread,
/// whenever such a stale `false` may have been stored.
struct ReadinessAnnouncements {
    /// How long a re-announcement waits: a stale `false` is rare, and the announcement it needs
    /// costs a plain queue a pass over every operation it holds, which the operation's start,
    /// usually sooner, makes unnecessary.
    static let reannouncementDelay = DispatchTimeInterval.milliseconds(1)

    /// The operation announced its readiness by KVO at least once.
    private(set) var hasAnnounced = false
    /// A re-announcement is dispatched and not yet made.
    private var isReannouncePending = false
    /// A query was answered `false`: becoming ready inside a later query must also be announced.
    private(set) var hasAnsweredNotReady = false
    private var inProgress: UInt16 = 0
    /// Queries while announcing: beyond the announcement's own, one may store a stale answer.
    private var queriesDuring: UInt16 = 0

    mutating func answeredNotReady() {
        hasAnsweredNotReady = true
    }

    /// Became ready inside a query, without an owner (a plain queue's): returns whether to
    /// announce it again from another thread.
    mutating func becameReadyAfterAnsweringNotReady() -> Bool {
        guard hasAnsweredNotReady, !isReannouncePending else { return false }
        isReannouncePending = true  // not now: Foundation may hold its queue's lock while it asks
        return true
    }

    /// A query of a ready, unstarted operation (the queue's re-test): returns whether to announce
    /// again from another thread.
    mutating func queriedWhileReady() -> Bool {
        if inProgress > 0 {
            queriesDuring += 1
            return false
        }
        guard hasAnnounced, !isReannouncePending else { return false }
        isReannouncePending = true
        return true
    }

    mutating func begin() {
        inProgress += 1
        hasAnnounced = true
    }

    /// Returns `true` when the announcement must be repeated; `waiting`: the operation is still
    /// ready and not started.
    mutating func end(waiting: Bool) -> Bool {
        inProgress -= 1
        let repeatIt = queriesDuring >= 2 && waiting
        if repeatIt || inProgress == 0 { queriesDuring = 0 }
        return repeatIt
    }

    /// The re-announcement dispatched earlier is being made.
    mutating func reannouncing() {
        isReannouncePending = false
    }
}
