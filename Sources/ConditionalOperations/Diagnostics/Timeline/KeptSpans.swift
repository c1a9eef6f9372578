import Foundation

/// The spans an ``OperationTimeline`` keeps of the operations that finished, behind a lock of
/// their own: at most `capacity`, those of the operations that finished first dropped first. A
/// running operation's spans are its ``TrackRecording``'s until it finishes, under the operation's
/// lock; the operations recorded are listed in the ``TrackTable``, behind a lock of its own, which
/// an operation finishing does not take.
struct KeptSpans {
    let capacity: Int
    /// The finished operations whose spans are kept, those that finished first first, from
    /// `oldest`. Each is kept whole until its last span is dropped, and its row after that, until
    /// the timeline's queue makes the row gone: what its log holds may be the user's last
    /// reference to a condition, let go of there, not on the thread that finished it under its
    /// lock (or with the timeline, if it goes first).
    private var kept: [Kept] = []
    private var oldest = 0
    /// How many spans of `kept[oldest]` were dropped: they are let go of with its last one.
    private var oldestDropped = 0
    /// How many spans `kept` holds from `oldest` on, less `oldestDropped`.
    private var keptSpans = 0
    private(set) var dropped = 0
    /// The tracks of the finished operations whose spans were all dropped, their rows not gone
    /// yet, from `evictedStart`: the timeline's queue makes them gone (``TrackTable/letGo(_:)``),
    /// a few at a time, and lets go of their recordings outside every lock.
    private var evicted: [Int] = []
    private var evictedStart = 0
    /// A release of the evicted rows is on its way: those dropped until it runs go with it.
    private var releaseScheduled = false
    /// How many recordings ended: their operation finished, or was let go of unfinished. Counted
    /// here, by the threads finishing operations, for ``TimelineStorage/timelineLetGo()``.
    private var endedRecordings = 0
    /// Once the timeline was let go of with operations still recording: how many recordings
    /// began, all of which end before the storage is let go of.
    private var endsAwaited: Int?

    /// A finished operation whose spans are kept, and how many it made: counted here, not read
    /// from its recording, which is cold by the time its spans are dropped.
    struct Kept {
        /// Not retained: its row holds it until the row is gone, after it left the list (its
        /// count, written by each thread finishing an operation, is not touched again as its
        /// spans are dropped).
        unowned(unsafe) let recording: TrackRecording
        let track: Int
        let spanCount: Int
    }

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The operation of `recording` finished: its spans are kept, the oldest dropped beyond
    /// `capacity`. Returns whether the caller schedules a release of those dropped
    /// (``evictedToMakeGone()``): a timeline past its capacity drops spans as each operation
    /// finishes, and one release goes for all those dropped meanwhile, not a Dispatch work item
    /// each.
    mutating func finish(_ recording: TrackRecording) -> Bool {
        let spanCount = recording.spanCount
        kept.append(Kept(recording: recording, track: recording.track, spanCount: spanCount))
        keptSpans += spanCount
        while keptSpans > capacity {
            let excess = keptSpans - capacity
            let remaining = kept[oldest].spanCount - oldestDropped
            if remaining > excess {
                // The oldest spans of the operation that finished first are dropped, the rest kept.
                oldestDropped += excess
                keptSpans -= excess
                dropped += excess
            } else {
                // Its recording goes with its row.
                evicted.append(kept[oldest].track)
                oldest += 1
                oldestDropped = 0
                keptSpans -= remaining
                dropped += remaining
            }
        }
        // Those let go of leave the list once they are half of it: no shift at every finish.
        if oldest >= 64, oldest * 2 >= kept.count {
            kept.removeFirst(oldest)
            oldest = 0
        }
        guard evictedStart < evicted.count, !releaseScheduled else { return false }
        releaseScheduled = true
        return true
    }

    /// A recording ended. Returns whether it was the last one the storage awaited, which lets go
    /// of it.
    mutating func recordingEnded() -> Bool {
        endedRecordings += 1
        return endedRecordings == endsAwaited
    }

    /// The timeline was let go of once `began` recordings began. Returns whether some have not
    /// ended: the storage awaits them.
    mutating func awaitEnds(of began: Int) -> Bool {
        guard began > endedRecordings else { return false }
        endsAwaited = began
        return true
    }

    /// The tracks of the operations whose spans were all dropped, their rows to be made gone: they
    /// stay listed (exports do not show them) until ``madeGone(_:)`` says they are.
    func evictedToMakeGone() -> [Int] {
        Array(goneSoon)
    }

    /// The first `count` tracks listed to be made gone are. Returns whether tracks are left to
    /// be made gone; once none is, the next drop needs a release of its own.
    mutating func madeGone(_ count: Int) -> Bool {
        evictedStart += count
        guard evictedStart == evicted.count else { return true }
        evicted.removeAll(keepingCapacity: true)
        evictedStart = 0
        releaseScheduled = false
        return false
    }

    /// The tracks of the operations whose spans were all dropped and whose rows may not be gone
    /// yet: the exports do not show them.
    var goneSoon: ArraySlice<Int> { evicted[evictedStart...] }

    /// What the exports read under its lock: the finished operations whose spans are
    /// kept, in the order they finished, their recordings retained (their rows may go once the
    /// lock is let go of).
    func tables() -> Tables {
        Tables(kept: kept[oldest...].map { $0.recording }, oldestDropped: oldestDropped, dropped: dropped)
    }

    /// What ``tables()`` copies.
    struct Tables {
        fileprivate let kept: [TrackRecording]
        fileprivate let oldestDropped: Int
        let dropped: Int

        /// The finished operations kept, by track, with their recordings, which change no more.
        var finished: [Int: TrackRecording] {
            Dictionary(kept.map { ($0.track, $0) }, uniquingKeysWith: { first, _ in first })
        }

        /// The spans kept, by operation, in the order they finished: made of their logs, which
        /// change no more (read outside the lock).
        var spans: [ArraySlice<TimelineSpan>] {
            var spans = kept.map { $0.spans()[...] }
            if !spans.isEmpty { spans[0] = spans[0].dropFirst(oldestDropped) }
            return spans
        }
    }
}
