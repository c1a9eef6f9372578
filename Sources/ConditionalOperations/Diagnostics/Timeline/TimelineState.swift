import Foundation

/// What an ``OperationTimeline`` recorded, behind its lock: a track per operation, and the spans
/// of the finished ones, at most `capacity`, those that finished first dropped first. A running
/// operation's spans are its ``TrackRecording``'s until it finishes, under the operation's lock.
struct TimelineState {
    let capacity: Int
    var tracks = TrackTable()
    /// The finished operations whose spans are kept, those that finished first first, from
    /// `oldest`; `nil` once let go of. Each is kept whole until its last span is dropped: what
    /// its log holds may be the user's last reference to a condition, let go of on the
    /// timeline's queue, not on the thread that finished it under its lock.
    private var kept: [Kept] = []
    private var oldest = 0
    /// How many spans of `kept[oldest]` were dropped: they are let go of with its last one.
    private var oldestDropped = 0
    /// How many spans `kept` holds from `oldest` on, less `oldestDropped`.
    private var keptSpans = 0
    private(set) var dropped = 0
    /// The finished operations whose spans were all dropped, not let go of yet: what their spans
    /// hold (a condition, an error) may be the user's last reference, so the timeline lets go of
    /// them outside every lock, many at a time (``takeEvicted()``).
    private var evicted: [TrackRecording] = []
    /// The rows let go of with their chunk (``TrackTable/markGone(_:)``), not let go of yet: they
    /// hold the errors their operations finished with.
    private var evictedRows: [[TimelineTrack]] = []
    /// A release of the evicted spans is on its way: those dropped until it runs go with it.
    private var releaseScheduled = false

    /// A finished operation whose spans are kept, and how many it made: counted here, not read
    /// from its recording, which is cold by the time its spans are dropped.
    struct Kept {
        var recording: TrackRecording?
        let track: Int
        let spanCount: Int
    }

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Lists `recording` with its row, giving it its track. The row is made here, in the list: one
    /// made by the caller would be copied into it, each of its references retained again.
    mutating func add(
        _ recording: TrackRecording, type: Foundation.Operation.Type, name: String?, parent: Int?,
        queue: ObjectIdentifier?
    ) {
        recording.track = tracks.count
        tracks.append(recording, type: type, name: name, parent: parent, queue: queue)
    }

    /// The operation of `recording` finished: its spans are kept, the oldest dropped beyond
    /// `capacity`. Returns whether the caller schedules a release of those dropped
    /// (``takeEvicted()``): a timeline past its capacity drops spans as each operation finishes,
    /// and one release goes for all those dropped meanwhile, not a Dispatch work item each.
    mutating func finish(_ recording: TrackRecording) -> Bool {
        let track = recording.track
        // The log read field by field (a copy of it would retain what it holds, under the
        // timeline's lock, at every finish), the row written in one access (each checks that its
        // chunk's rows are not shared), and the recording moved from it to the list below.
        let finished = tracks.update(track) { row in
            row.wasCancelled = recording.log.cancelledAt != nil
            row.executed = recording.log.executed
            row.finished = recording.log.finished
            return row.recording.take()
        }
        let spanCount = recording.spanCount
        kept.append(Kept(recording: finished, track: track, spanCount: spanCount))
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
                if let evictedRecording = kept[oldest].recording { evicted.append(evictedRecording) }
                kept[oldest].recording = nil
                if let rows = tracks.markGone(kept[oldest].track) { evictedRows.append(rows) }
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
        guard !evicted.isEmpty, !releaseScheduled else { return false }
        releaseScheduled = true
        return true
    }

    /// The finished operations whose spans were dropped until now, to be let go of outside every
    /// lock; the next drop needs a release of its own.
    mutating func takeEvicted() -> (recordings: [TrackRecording], rows: [[TimelineTrack]]) {
        releaseScheduled = false
        defer { (evicted, evictedRows) = ([], []) }
        return (evicted, evictedRows)
    }

    /// What the exports read under the timeline's lock: every track (the running ones with their
    /// recording, read after, each under its operation's lock) and the spans kept, in the order
    /// their operations finished.
    func tables() -> Tables {
        Tables(tracks: tracks, kept: kept, oldest: oldest, oldestDropped: oldestDropped, dropped: dropped)
    }

    /// What ``tables()`` copies (arrays shared, not copied, under the lock).
    struct Tables {
        let tracks: TrackTable
        fileprivate let kept: [Kept]
        fileprivate let oldest: Int
        fileprivate let oldestDropped: Int
        let dropped: Int

        /// The spans kept, by operation, in the order they finished: made of their logs, which
        /// change no more (read outside the timeline's lock).
        var spans: [ArraySlice<TimelineSpan>] {
            var spans = kept[oldest...].map { $0.recording?.spans()[...] ?? [] }
            if !spans.isEmpty { spans[0] = spans[0].dropFirst(oldestDropped) }
            return spans
        }
    }
}

/// What the exports read of a timeline, at once.
struct TimelineSnapshot: Sendable {
    struct Span: Sendable {
        let span: TimelineSpan
        /// Not ended when the timeline was read: it ends at `now` here.
        let isOpen: Bool
    }

    let origin: UInt64
    let now: UInt64
    /// The rows kept: those of operations whose spans were all dropped may be gone.
    let tracks: TrackTable
    /// Every span: the finished operations' in the order they finished, then the running ones',
    /// the open ones closed at `now` and marked open.
    let spans: [Span]
    let dropped: Int
    /// A running operation that holds categories, limits or permits.
    struct Holder: Sendable {
        let track: Int
        /// Their keys (``TimelineSpan/Reason/categories(_:)``).
        let keys: [String]
        /// When it was cancelled, if it was: it holds them until it finishes.
        let cancelledAt: UInt64?
    }

    let held: [Holder]

    /// `running`: what the tracks running when the timeline was read had recorded, each read
    /// under its operation's lock (finished since, it holds every span it recorded).
    init(
        origin: UInt64, now: UInt64, tracks: TrackTable, kept: [ArraySlice<TimelineSpan>],
        running: [(track: Int, contents: TrackContents)], dropped: Int
    ) {
        self.origin = origin
        self.now = now
        var tracks = tracks
        for (track, contents) in running {
            tracks[track].recording = nil
            tracks[track].wasCancelled = tracks[track].wasCancelled || contents.wasCancelled
            tracks[track].executed = contents.executed
            tracks[track].finished = contents.finished
        }
        self.tracks = tracks
        self.dropped = dropped
        var spans = kept.joined().map { Span(span: $0, isOpen: false) }
        for (_, contents) in running {
            spans += contents.closed.map { Span(span: $0, isOpen: false) }
            for case var open? in [contents.openSpan, contents.openNested] {
                open.end = max(now, open.start)
                spans.append(Span(span: open, isOpen: true))
            }
        }
        self.spans = spans
        held = running.filter { $0.contents.finished == nil && !$0.contents.held.isEmpty }.map {
            Holder(track: $0.track, keys: $0.contents.held, cancelledAt: $0.contents.cancelledAt)
        }
    }

    /// `time`, in microseconds since the timeline was made.
    func microseconds(_ time: UInt64) -> Double {
        Double(time &- min(origin, time)) / 1000
    }
}
