import Dispatch

/// What answers swift-corelibs-foundation's cached `isReady`, and when a readiness announcement
/// changes the answer.
///
/// That queue stores the answer of every `isReady` query and dispatches only operations whose
/// stored answer is `true`, with no timer to look again. The answers of concurrent queries are
/// stored in whatever order their threads get there: a `false` read before the operation became
/// ready can overwrite the `true` of the query, or of the KVO announcement, that made it ready,
/// and the queue then never starts it. So readiness is announced again, from another thread,
/// when such a stale `false` may have been stored.
///
/// Only a `false` answer can be stored stale, and each at most once: the re-announcements are
/// counted against the `false` answers given (at most ``staleAnswerLimit``), so that no number of
/// `isReady` reads can make them repeat. Apple's KVO reads the value once per observer and again
/// for `.prior` and `.old` observers, and anyone may read it in a loop: a read is never more than
/// a hint that the queue re-tested the operation.
public struct ReadinessAnnouncements: Sendable {
    /// How long a re-announcement waits: a stale `false` is rare, and the announcement it needs
    /// costs a plain queue a pass over every operation it holds, which the operation's start,
    /// usually sooner, makes unnecessary.
    public static let reannouncementDelay = DispatchTimeInterval.milliseconds(1)

    /// The most `false` answers remembered as possibly stale. One is stored late only by a
    /// Foundation thread that read it before the operation became ready and stores it after;
    /// Foundation reads an operation's readiness on a handful of occasions (added to a queue, a
    /// dependency added, removed or finished, a cancel), so more than this many at once does not
    /// happen, while each one remembered may cost an announcement.
    public static let staleAnswerLimit: UInt8 = 2

    /// The operation announced its readiness by KVO at least once.
    @usableFromInline var hasAnnounced: Bool
    /// A re-announcement is dispatched and not yet made.
    @usableFromInline var isReannouncePending: Bool
    /// A query was answered `false`: becoming ready inside a later query must also be announced.
    @usableFromInline var hasAnsweredNotReady: Bool
    /// Ready outside a query, and no announcement began yet: `isReady` still answers `false`, so
    /// that its value changes between the announcement's `willChangeValue` and `didChangeValue`.
    @usableFromInline var isUnannounced: Bool
    /// `false` answers that may still be stored after a `true` (at most ``staleAnswerLimit``):
    /// what a re-announcement may still repair.
    @usableFromInline var staleAnswers: UInt8
    /// Announcements under way, on as many threads.
    @usableFromInline var inProgress: UInt8
    /// Queries while announcing (counted up to 2): the first is the announcement's own; another
    /// may be the queue's re-test, which finds a stale `false` stored.
    @usableFromInline var queriesDuring: UInt8

    @inlinable init() {
        self.hasAnnounced = false
        self.isReannouncePending = false
        self.hasAnsweredNotReady = false
        self.isUnannounced = false
        self.staleAnswers = 0
        self.inProgress = 0
        self.queriesDuring = 0
    }

    @inlinable mutating func answeredNotReady() {
        hasAnsweredNotReady = true
        if staleAnswers < Self.staleAnswerLimit { staleAnswers += 1 }
    }

    /// Became ready outside a query, without an owner: `isReady` answers `true` once the
    /// announcement began.
    @inlinable mutating func becameReadyUnannounced() {
        isUnannounced = true
    }

    /// Became ready inside a query, without an owner (a plain queue's): returns whether to
    /// announce it again from another thread.
    @inlinable mutating func becameReadyAfterAnsweringNotReady() -> Bool {
        guard hasAnsweredNotReady, !isReannouncePending else { return false }
        isReannouncePending = true  // not now: Foundation may hold its queue's lock while it asks
        return true
    }

    /// A query of a ready, announced, unstarted operation: returns whether to announce again from
    /// another thread (the query may be the queue's re-test, which found a stale `false`).
    @inlinable mutating func queriedWhileReady() -> Bool {
        if inProgress > 0 {
            if queriesDuring < 2 { queriesDuring += 1 }
            return false
        }
        guard hasAnnounced, !isReannouncePending, takeStaleAnswer() else { return false }
        isReannouncePending = true
        return true
    }

    /// Called once `willChangeValue` was posted: from here on `isReady` answers `true`.
    @inlinable mutating func begin() {
        inProgress += 1
        hasAnnounced = true
        isUnannounced = false
    }

    /// Returns `true` when the announcement must be repeated; `waiting`: the operation is still
    /// ready and not started.
    @inlinable mutating func end(waiting: Bool) -> Bool {
        inProgress -= 1
        let repeatIt = queriesDuring >= 2 && waiting && takeStaleAnswer()
        if repeatIt || inProgress == 0 { queriesDuring = 0 }
        return repeatIt
    }

    /// The re-announcement dispatched earlier is being made.
    @inlinable mutating func reannouncing() {
        isReannouncePending = false
    }

    /// Counts a re-announcement against a `false` answer it may repair; `false` once none is left.
    @inlinable mutating func takeStaleAnswer() -> Bool {
        guard staleAnswers > 0 else { return false }
        staleAnswers -= 1
        return true
    }
}
