import Dispatch

/// What answers swift-corelibs-foundation's cached `isReady`, and when a readiness announcement
/// changes the answer.
///
/// That queue stores the answer of every `isReady` query and dispatches only operations whose
/// stored answer is `true`, with no timer to look again. The answers of concurrent queries are
/// stored in whatever order their threads get there: a `false` read before the operation became
/// ready can overwrite the `true` of the query, or of the KVO announcement, that made it ready,
/// and the queue then never starts it. So an operation that became ready inside a query after it
/// answered `false` looks again a moment later, from another thread, and announces its readiness
/// again if it still waits to be started.
///
/// Where the queue re-tests the `false` answers it stored (swift-corelibs-foundation's,
/// ``OperationMachineHost/retestsStoredReadiness``), that look stays silent when the re-test is
/// sure to repair a stale answer: the operation became ready in one locked step from waiting for
/// dependencies Foundation counts, every `false` it gave was Foundation's own count speaking (not
/// a stage of its own, such as its dependencies being registered or its conditions asked, where
/// Foundation may already count it ready and never re-test), that count still holds (no
/// dependency was removed unfinished), and no read found it ready and waiting while the look was
/// on its way. A stale `false` is then re-tested by the next pass that reaches the operation,
/// since Foundation counts its dependencies as finished, and every pass it is not started by is
/// followed by another (a slot freed, the addition that stored it, a resume); that re-test, a
/// query of the ready operation, announces it at once (``repairsOnRetest``). A fan-out of
/// operations made ready by their dependency's finish, dispatched by the pass that follows, then
/// costs the queue no pass more than the same `BlockOperation`s.
///
/// Only a `false` answer can be stored stale, and each at most once: the re-announcements a
/// query makes are counted against the `false` answers given (at most ``staleAnswerLimit``), so
/// that no number of `isReady` reads can make them repeat. Apple's KVO reads the value once per
/// observer and again for `.prior` and `.old` observers, and anyone may read it in a loop: a read
/// is never more than a hint that the queue re-tested the operation.
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

    /// The flags below, one bit each: the machine's size is what an operation costs in memory.
    @usableFromInline var flags: UInt8
    /// `false` answers that may still be stored after a `true` (at most ``staleAnswerLimit``):
    /// what a re-announcement may still repair.
    @usableFromInline var staleAnswers: UInt8
    /// Announcements under way, on as many threads.
    @usableFromInline var inProgress: UInt8
    /// Queries while announcing (counted up to 2): the first is the announcement's own; another
    /// may be the queue's re-test, which finds a stale `false` stored.
    @usableFromInline var queriesDuring: UInt8

    @inlinable init() {
        self.flags = 0
        self.staleAnswers = 0
        self.inProgress = 0
        self.queriesDuring = 0
    }

    @usableFromInline enum Flag: UInt8 {
        case hasAnnounced = 1
        case isReannouncePending = 2
        case hasAnsweredNotReady = 4
        case answeredOwnStage = 8
        case repairsOnRetest = 16
        case lookMayStaySilent = 32
        case isUnannounced = 64
    }

    @inlinable func has(_ flag: Flag) -> Bool { flags & flag.rawValue != 0 }

    @inlinable mutating func set(_ flag: Flag, _ value: Bool) {
        flags = value ? flags | flag.rawValue : flags & ~flag.rawValue
    }

    /// The operation announced its readiness by KVO at least once.
    @inlinable var hasAnnounced: Bool { has(.hasAnnounced) }
    /// A re-announcement is dispatched and not yet made.
    @inlinable var isReannouncePending: Bool { has(.isReannouncePending) }
    /// A query was answered `false`: becoming ready inside a later query must also be announced,
    /// or the queue's re-test repair it (``repairsOnRetest``).
    @inlinable var hasAnsweredNotReady: Bool { has(.hasAnsweredNotReady) }
    /// A `false` was answered for a stage of the operation's own (its dependencies being
    /// registered, its conditions asked or evaluated, its categories requested, its announcement
    /// not begun), not because Foundation counted a dependency unfinished: Foundation may have
    /// counted it ready then, and its queue re-tests nothing it counts ready.
    @inlinable var answeredOwnStage: Bool { has(.answeredOwnStage) }
    /// Became ready inside a query, from waiting for dependencies Foundation counts, every `false`
    /// Foundation's count, in a queue that re-tests the `false` answers it stored: a query while
    /// it waits may be that re-test, and announces it (``queriedWhileReady()``).
    @inlinable var repairsOnRetest: Bool { has(.repairsOnRetest) }
    /// The look on its way may stay silent (``reannouncing()``): no read found the operation ready
    /// and waiting since it became ready so.
    @inlinable var lookMayStaySilent: Bool { has(.lookMayStaySilent) }
    /// Ready outside a query, and no announcement began yet: `isReady` still answers `false`, so
    /// that its value changes between the announcement's `willChangeValue` and `didChangeValue`.
    @inlinable var isUnannounced: Bool { has(.isUnannounced) }

    /// A query was answered `false`. `countedByFoundation`: because Foundation counts a dependency
    /// unfinished (its answer, read for this query), not for a stage of the operation's own.
    @inlinable mutating func answeredNotReady(countedByFoundation: Bool = false) {
        set(.hasAnsweredNotReady, true)
        if !countedByFoundation { set(.answeredOwnStage, true) }
        if staleAnswers < Self.staleAnswerLimit { staleAnswers += 1 }
    }

    /// Became ready outside a query, without an owner: `isReady` answers `true` once the
    /// announcement began.
    @inlinable mutating func becameReadyUnannounced() {
        set(.isUnannounced, true)
    }

    /// Became ready inside a query, without an owner (a plain queue's): returns whether to look
    /// again from another thread, a moment later. `repairedByRetest`: it became ready in one
    /// locked step from waiting for dependencies Foundation counts, in a queue that re-tests the
    /// `false` answers it stored; with every `false` it gave Foundation's count, the look may stay
    /// silent (``lookMayStaySilent``) and a query while it waits repairs a stale one instead.
    @inlinable mutating func becameReadyAfterAnsweringNotReady(repairedByRetest: Bool) -> Bool {
        guard hasAnsweredNotReady, !isReannouncePending else { return false }
        let repaired = repairedByRetest && !answeredOwnStage
        set(.repairsOnRetest, repaired)
        set(.lookMayStaySilent, repaired)
        set(.isReannouncePending, true)  // not now: Foundation may hold its queue's lock while it asks
        return true
    }

    /// Whether a query of the ready, unstarted operation may be the queue's re-test of a stale
    /// `false`, to be answered under the lock (``queriedWhileReady()``).
    @inlinable var repairsOnQuery: Bool {
        hasAnnounced || (repairsOnRetest && (staleAnswers > 0 || isReannouncePending))
    }

    /// A query of a ready, unstarted operation that announced itself, or that its queue's re-test
    /// repairs (``repairsOnRetest``): returns whether to announce again from another thread (the
    /// query may be the queue's re-test, which found a stale `false`). With a look on its way, the
    /// look announces.
    @inlinable mutating func queriedWhileReady() -> Bool {
        if inProgress > 0 {
            if queriesDuring < 2 { queriesDuring += 1 }
            return false
        }
        if isReannouncePending {
            set(.lookMayStaySilent, false)
            return false
        }
        guard hasAnnounced || repairsOnRetest, takeStaleAnswer() else { return false }
        set(.isReannouncePending, true)
        return true
    }

    /// Called once `willChangeValue` was posted: from here on `isReady` answers `true`.
    @inlinable mutating func begin() {
        inProgress += 1
        set(.hasAnnounced, true)
        set(.isUnannounced, false)
    }

    /// Returns `true` when the announcement must be repeated; `waiting`: the operation is still
    /// ready and not started.
    @inlinable mutating func end(waiting: Bool) -> Bool {
        inProgress -= 1
        let repeatIt = queriesDuring >= 2 && waiting && takeStaleAnswer()
        if repeatIt || inProgress == 0 { queriesDuring = 0 }
        return repeatIt
    }

    /// The re-announcement dispatched earlier is being made; returns whether it may stay silent
    /// (``lookMayStaySilent``).
    @inlinable mutating func reannouncing() -> Bool {
        defer {
            set(.isReannouncePending, false)
            set(.lookMayStaySilent, false)
        }
        return lookMayStaySilent
    }

    /// Counts a re-announcement against a `false` answer it may repair; `false` once none is left.
    @inlinable mutating func takeStaleAnswer() -> Bool {
        guard staleAnswers > 0 else { return false }
        staleAnswers -= 1
        return true
    }
}
