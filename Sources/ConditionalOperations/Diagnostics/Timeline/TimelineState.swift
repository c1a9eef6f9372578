import Foundation

/// What an ``OperationTimeline`` recorded, behind its lock: a track per operation and the spans
/// of the finished ones, in a ring of `capacity`. A running operation's spans are in its own
/// ``TrackRecording`` until it finishes.
struct TimelineState {
    let capacity: Int
    /// The clock's reading when the timeline was made: exported times count from it.
    let origin: UInt64
    var tracks: [TimelineTrack] = []
    /// Finished spans, oldest first from `head` once the ring is full.
    private var spans: [TimelineSpan] = []
    private var head = 0
    private(set) var dropped = 0
    /// Spans dropped and not let go of yet: what they hold (a condition, an error) may be the
    /// user's last reference, so the timeline lets go of them outside every lock, many at a time
    /// (``evictedNeedRelease()``, ``takeEvicted()``).
    private var evicted: [TimelineSpan] = []
    /// A release of the evicted spans is on its way: those dropped until it runs go with it.
    private var releaseScheduled = false

    init(capacity: Int, origin: UInt64) {
        self.capacity = capacity
        self.origin = origin
    }

    /// A new track, and where its operation records its spans while it runs, in `storage`
    /// (``TrackRecording/storage()``, made before the lock was taken).
    mutating func addTrack(
        type: Foundation.Operation.Type, name: String?, parent: Int?, queue: ObjectIdentifier?,
        storage: Locked<TrackRecording.Contents>
    )
        -> TrackRecording
    {
        let recording = TrackRecording(track: tracks.count, storage: storage)
        tracks.append(
            TimelineTrack(type: type, givenName: name, parent: parent, queue: queue, recording: recording))
        return recording
    }

    /// The operation of `recording` finished: its spans join the ring. Takes the recording's lock
    /// inside the timeline's (the snapshot does the same), so no export sees them in neither.
    mutating func finish(_ recording: TrackRecording, errors: [any Error], at now: UInt64) {
        let track = recording.track
        guard tracks[track].finished == nil else { return }
        let ended = recording.end(at: now)
        tracks[track].recording = nil
        tracks[track].wasCancelled = ended.wasCancelled
        tracks[track].executed = ended.executed
        tracks[track].finished = (now, errors)
        for span in ended.spans { keep(span) }
    }

    mutating func cancelled(_ recording: TrackRecording, at now: UInt64) {
        let track = recording.track
        if tracks[track].recording == nil {
            tracks[track].wasCancelled = true
        } else {
            recording.cancelled(at: now)
        }
    }

    private mutating func keep(_ span: TimelineSpan) {
        guard spans.count == capacity else { return spans.append(span) }
        evicted.append(spans[head])
        spans[head] = span
        head = (head + 1) % capacity
        dropped += 1
    }

    /// Whether spans were dropped and no release is on its way: the caller schedules one, which
    /// takes them (``takeEvicted()``). A timeline past its capacity drops spans as each operation
    /// finishes: one release for all those dropped meanwhile, not a Dispatch work item each.
    mutating func evictedNeedRelease() -> Bool {
        guard !evicted.isEmpty, !releaseScheduled else { return false }
        releaseScheduled = true
        return true
    }

    /// The spans dropped until now, to be let go of outside every lock; the next drop needs a
    /// release of its own.
    mutating func takeEvicted() -> [TimelineSpan] {
        releaseScheduled = false
        guard !evicted.isEmpty else { return [] }
        defer { evicted = [] }
        return evicted
    }

    /// What the exports read: copies of the tables (their storage shared, not copied, here) and
    /// of what each running operation recorded so far, which ``TimelineSnapshot`` puts together
    /// outside the lock.
    func tables() -> (
        origin: UInt64, tracks: [TimelineTrack], ring: [TimelineSpan], head: Int, dropped: Int,
        running: [TrackRecording.Contents]
    ) {
        // A read of each track's one field: an export waits for no more than that per operation.
        let running = tracks.compactMap { $0.recording?.contents }
        return (origin, tracks, spans, head, dropped, running)
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
    let tracks: [TimelineTrack]
    /// Every span: the finished operations' in the order they joined the timeline, then the
    /// running ones', the open ones closed at `now` and marked open.
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

    init(
        origin: UInt64, now: UInt64, tracks: [TimelineTrack], ring: [TimelineSpan], head: Int, dropped: Int,
        running: [TrackRecording.Contents]
    ) {
        self.origin = origin
        self.now = now
        var tracks = tracks
        for contents in running {
            tracks[contents.track].wasCancelled = contents.wasCancelled
            tracks[contents.track].executed = contents.executed
        }
        self.tracks = tracks
        self.dropped = dropped
        var spans = (ring[head...] + ring[..<head]).map { Span(span: $0, isOpen: false) }
        for contents in running {
            spans += contents.closed.map { Span(span: $0, isOpen: false) }
            for case var open? in [contents.openSpan, contents.openNested] {
                open.end = max(now, open.start)
                spans.append(Span(span: open, isOpen: true))
            }
        }
        self.spans = spans
        held = running.filter { !$0.held.isEmpty }.map {
            Holder(track: $0.track, keys: $0.held, cancelledAt: $0.cancelledAt)
        }
    }

    /// `time`, in microseconds since the timeline was made.
    func microseconds(_ time: UInt64) -> Double {
        Double(time &- min(origin, time)) / 1000
    }
}
