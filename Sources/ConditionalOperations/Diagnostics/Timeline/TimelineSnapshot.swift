import Foundation

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

    /// `finished`: the recordings of the finished operations whose spans are `kept`, by track.
    /// `running`: what the tracks running when the timeline was read had recorded, each read
    /// under its operation's lock (finished since, it holds every span it recorded).
    init(
        origin: UInt64, now: UInt64, tracks: TrackTable, kept: [ArraySlice<TimelineSpan>],
        finished: [Int: TrackRecording], running: [(track: Int, contents: TrackContents)], dropped: Int
    ) {
        self.origin = origin
        self.now = now
        var tracks = tracks
        // A finished operation's log changes no more: its ending is read from it.
        for (track, recording) in finished where tracks.contains(track) {
            tracks[track].showEnding(
                cancelled: recording.log.cancelledAt != nil, executed: recording.log.executed,
                finished: recording.log.finished)
        }
        for (track, contents) in running {
            tracks[track].showEnding(
                cancelled: contents.wasCancelled, executed: contents.executed, finished: contents.finished)
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
