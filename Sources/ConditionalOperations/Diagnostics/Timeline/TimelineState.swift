import Foundation

/// What an ``OperationTimeline`` recorded, behind its lock: a track per operation and the spans,
/// the finished ones in a ring of `capacity`.
struct TimelineState {
    let capacity: Int
    /// The clock's reading when the timeline was made: exported times count from it.
    let origin: UInt64
    var tracks: [TimelineTrack] = []
    /// Finished spans, oldest first from `head` once the ring is full.
    private var spans: [TimelineSpan] = []
    private var head = 0
    private(set) var dropped = 0
    /// Spans dropped by the current event: what they hold (a condition, an error) may be the user's
    /// last reference, so the timeline lets go of them outside every lock (``takeEvicted()``).
    private var evicted: [TimelineSpan] = []

    init(capacity: Int, origin: UInt64) {
        self.capacity = capacity
        self.origin = origin
    }

    mutating func addTrack(type: Foundation.Operation.Type, name: String?, parent: Int?) -> Int {
        tracks.append(TimelineTrack(type: type, givenName: name, parent: parent))
        return tracks.count - 1
    }

    /// The operation entered `state`: its open span ends, the state's own begins.
    mutating func enter(_ state: ConditionalOperation.State, track: Int, at now: UInt64) {
        if state == .executing { tracks[track].executed = true }
        closeNested(track: track, at: now)
        if let open = tracks[track].openSpan {
            if TimelineSpan.Kind(state) == open.kind { return }  // told again (the current state)
            close(open, at: now)
        }
        tracks[track].openSpan = TimelineSpan.Kind(state).map {
            TimelineSpan(track: track, kind: $0, start: now)
        }
    }

    mutating func addCondition(
        _ condition: any OperationCondition, _ result: OperationConditionResult, track: Int,
        from start: UInt64, to end: UInt64
    ) {
        // Inside the span it was evaluated in: it began no earlier.
        let start = max(start, tracks[track].openSpan?.start ?? start)
        keep(
            TimelineSpan(
                track: track, kind: .condition, start: start, end: end, reason: .condition(condition, result))
        )
    }

    mutating func openNested(
        _ kind: TimelineSpan.Kind, reason: TimelineSpan.Reason, track: Int, at now: UInt64
    ) {
        closeNested(track: track, at: now)
        tracks[track].openNested = TimelineSpan(track: track, kind: kind, start: now, reason: reason)
    }

    mutating func closeNested(track: Int, at now: UInt64) {
        guard let nested = tracks[track].openNested else { return }
        tracks[track].openNested = nil
        close(nested, at: now)
    }

    mutating func finish(_ track: Int, errors: [any Error], at now: UInt64) {
        guard tracks[track].finished == nil else { return }
        closeNested(track: track, at: now)
        if let open = tracks[track].openSpan {
            tracks[track].openSpan = nil
            close(open, at: now)
        }
        tracks[track].finished = (now, errors)
    }

    private mutating func close(_ span: TimelineSpan, at now: UInt64) {
        var closed = span
        closed.end = max(now, span.start)
        keep(closed)
    }

    private mutating func keep(_ span: TimelineSpan) {
        guard spans.count == capacity else { return spans.append(span) }
        evicted.append(spans[head])
        spans[head] = span
        head = (head + 1) % capacity
        dropped += 1
    }

    /// The spans dropped since the last call, to be let go of outside every lock.
    mutating func takeEvicted() -> [TimelineSpan] {
        guard !evicted.isEmpty else { return [] }
        defer { evicted = [] }
        return evicted
    }

    /// What the exports read, as of `now`: copies of the tables (no copying of their elements
    /// here), which ``TimelineSnapshot`` puts in order outside the lock.
    func tables(at now: UInt64) -> (
        origin: UInt64, now: UInt64, tracks: [TimelineTrack], ring: [TimelineSpan], head: Int, dropped: Int
    ) {
        (origin, now, tracks, spans, head, dropped)
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
    /// Every span, oldest first, the open ones closed at `now` and marked open.
    let spans: [Span]
    let dropped: Int

    init(origin: UInt64, now: UInt64, tracks: [TimelineTrack], ring: [TimelineSpan], head: Int, dropped: Int)
    {
        self.origin = origin
        self.now = now
        self.tracks = tracks
        self.dropped = dropped
        var spans = (ring[head...] + ring[..<head]).map { Span(span: $0, isOpen: false) }
        for track in tracks {
            for case var open? in [track.openSpan, track.openNested] {
                open.end = max(now, open.start)
                spans.append(Span(span: open, isOpen: true))
            }
        }
        self.spans = spans
    }

    /// `time`, in microseconds since the timeline was made.
    func microseconds(_ time: UInt64) -> Double {
        Double(time &- min(origin, time)) / 1000
    }
}
