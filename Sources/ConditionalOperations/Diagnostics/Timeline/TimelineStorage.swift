import Dispatch
import Foundation

/// What an ``OperationTimeline`` records, and the locks it is recorded under: the object the
/// recorded operations reach, not the timeline its users and queues hold.
///
/// A recorded operation holds neither: when each held the timeline, the thread adding operations
/// and every thread finishing one wrote its count, on every core at every operation. The
/// recordings reach the storage unretained, and it lives on, once its timeline is let go of, until
/// the last operation it records ended: finished, or let go of unfinished (``timelineLetGo()``).
/// Once an operation's end is counted, nothing of it reaches the storage: it may be gone.
///
/// Locks, taken in this order where several are held: the spans kept, the rows, the arrivals.
final class TimelineStorage: Sendable {
    let clock: TimelineClock
    /// The clock's reading when the timeline was made: exported times count from it.
    let origin: UInt64
    /// The operations recorded, by track: taken by whoever reads or changes them, which lists
    /// the arrivals first (``withTracks(_:)``).
    let tracks = Locked(TrackTable())
    /// The operations recorded and not listed yet: the thread adding operations takes this lock
    /// alone. Taken after the rows' where both are held.
    let arrivals = Locked(TrackArrivals())
    /// The spans of the finished operations, written by the threads finishing them: not behind
    /// the rows' lock, so that those threads and the timeline's queue do not wait for each
    /// other at every operation. Taken before the rows' lock where both are held.
    let kept: Locked<KeptSpans>
    /// Where the operations whose spans were all dropped to stay within the capacity are let go
    /// of, recordings and spans: recording runs under the recorded operation's lock, and what a
    /// span holds may be the last reference to user code. (Those dropped when the storage goes go
    /// with it, wherever that is.)
    private let releaser = DispatchQueue(label: "ConditionalOperations.timeline")
    /// How long dropped spans wait to be let go of, with those dropped after them: each release
    /// wakes a thread, which on a machine of few cores takes a core from the operations (on two
    /// cores, a release every 10 ms made recording an operation cost about 3% more of its time).
    /// What is dropped meanwhile stays in memory as long.
    static let releaseDelay = DispatchTimeInterval.milliseconds(100)

    init(capacity: Int, clock: TimelineClock) {
        self.clock = clock
        origin = clock.now()
        kept = Locked(KeptSpans(capacity: capacity))
    }

    // MARK: Recording

    /// A new track, recorded by the recording returned, which is sent to under the lock of
    /// `owner`.
    func addTrack(
        lockedBy owner: ObjectIdentifier, type: Foundation.Operation.Type, name: String?, parent: Int?,
        queue: ObjectIdentifier? = nil
    ) -> TrackRecording {
        let recording = TrackRecording(
            storage: self, operation: owner, type: type, name: name, parent: parent, queue: queue)
        // A chunk's worth waiting: listed here, once a chunk, if nothing else listed them.
        if arrivals.withLock({ $0.add(recording) }) { withTracks { _ in } }
        return recording
    }

    /// The composite of track `parent` runs `operation`, which the timeline does not record,
    /// until it finished.
    func runsUnrecorded(_ operation: Foundation.Operation, under parent: Int) {
        withTracks { $0.note(parent) { $0.unrecordedRunning += 1 } }
        FinishWatcher(watching: operation) { [tracks, arrivals] in
            // Its composite's row may be gone since, with every span it made.
            Self.withTracks(tracks, arrivals) { $0.note(parent) { $0.unrecordedRunning -= 1 } }
        }
    }

    /// Runs `body` on the operations recorded, those that arrived since listed first.
    func withTracks<Result>(_ body: (inout TrackTable) -> Result) -> Result {
        Self.withTracks(tracks, arrivals, body)
    }

    private static func withTracks<Result>(
        _ tracks: Locked<TrackTable>, _ arrivals: Locked<TrackArrivals>, _ body: (inout TrackTable) -> Result
    ) -> Result {
        tracks.withLock { table in
            table.list(arrivals.withLock { $0.take() })
            return body(&table)
        }
    }

    /// The operation of `recording` finished (under its lock): its spans are kept, the oldest
    /// dropped beyond the capacity and let go of elsewhere.
    func finished(_ recording: TrackRecording) {
        // Its end counted last, in the trip that schedules the release: once the lock is let go
        // of, the storage may go (its timeline let go of meanwhile), unless this end was the last
        // one it awaited, which its hold covers.
        let wasLast = kept.withLock { kept in
            if kept.finish(recording) { scheduleRelease() }
            return kept.recordingEnded()
        }
        if wasLast { letGoOfItself() }
    }

    /// Lets go of the spans dropped from now on a moment later: a timeline past its capacity drops
    /// spans at every finish, and a release at once would wake a thread for nearly each one. Not
    /// held meanwhile: what it recorded goes as soon as it is let go of, not on this queue once the
    /// delay is over.
    private func scheduleRelease() {
        releaser.asyncAfter(deadline: .now() + Self.releaseDelay) { [weak self] in
            self?.letGoOfDropped()
        }
    }

    /// The operation of a recording that had not finished was let go of: it records no more.
    func endedUnfinished() {
        if kept.withLock({ $0.recordingEnded() }) { letGoOfItself() }
    }

    /// Makes the operations whose spans were all dropped gone, all those dropped so far in one
    /// trip through the rows' lock, which the thread adding operations does not wait for, and
    /// lets go of their recordings outside the locks. Takes one lock at a time: the threads
    /// finishing operations wait for no row.
    private func letGoOfDropped() {
        var more = true
        while more {
            let evicted = kept.withLock { $0.evictedToMakeGone() }
            let letGo = withTracks { $0.letGo(evicted) }
            more = kept.withLock { $0.madeGone(evicted.count) }
            withExtendedLifetime(letGo) {}
        }
    }

    // MARK: Lifetime

    /// Its timeline was let go of: it lives on, holding itself, while operations it began to
    /// record have not ended, and the last of them to end lets go of it (``letGoOfItself()``).
    /// No operation is recorded from now on: whatever adds one (a queue, a composite) holds the
    /// timeline.
    func timelineLetGo() {
        kept.withLock { kept in
            let began = arrivals.withLock { $0.count }
            // Under the lock: the last to end, which lets go of it, cannot end before it is held.
            if kept.awaitEnds(of: began) { _ = Unmanaged.passRetained(self) }
        }
    }

    /// The last operation recorded ended after the timeline was let go of: the hold
    /// ``timelineLetGo()`` took is let go of on its queue, not under that operation's lock (what
    /// the spans hold may be the last reference to user code).
    private func letGoOfItself() {
        let held = Unmanaged.passUnretained(self)
        releaser.async { held.release() }
    }

    // MARK: Reading

    /// What the exports read: every track and span, the open ones closed at `now` (marked open).
    func snapshot() -> TimelineSnapshot {
        // The operations copied under the lock of the spans kept, so that none joins them or
        // leaves them meanwhile; those whose spans were all dropped are not shown.
        var table = TrackTable()
        let (tables, goneSoon) = kept.withLock { kept in
            table = withTracks { $0 }
            return (kept.tables(), Array(kept.goneSoon))
        }
        // Gone in the copy: what it held of them goes on the timeline's queue, which may have made
        // them gone since, leaving the copy their last reference.
        let letGo = table.letGo(goneSoon)
        if !letGo.isEmpty { releaser.async { withExtendedLifetime(letGo) {} } }
        // Each running operation is read under its own lock, taken after the timeline's were let
        // go of: an operation finishing takes the timeline's under its own.
        return TimelineSnapshot(
            origin: origin, clock: clock, tracks: table, kept: tables.spans, finished: tables.finished,
            dropped: tables.dropped)
    }
}
