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
    /// The rows shown: those of the operations running, and of those finished whose spans are
    /// kept.
    let tracks: TimelineRows
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

    /// `tracks`: the operations kept, those whose spans were all dropped gone. `finished`: the
    /// recordings of the finished operations whose spans are `kept`, by track, which change no
    /// more; the others are read under their operations' locks (finished since, one holds every
    /// span it recorded). `clock` is read after them: no span copied ends after ``now``.
    init(
        origin: UInt64, clock: TimelineClock, tracks: TrackTable, kept: [ArraySlice<TimelineSpan>],
        finished: [Int: TrackRecording], dropped: Int
    ) {
        self.origin = origin
        var rows: [(track: Int, row: TimelineTrack)] = []
        var running: [(track: Int, contents: TrackContents)] = []
        for (track, recording) in tracks.kept {
            let ending: TrackContents.Ending
            if finished[track] != nil {
                ending = recording.log.ending
            } else {
                let contents = recording.read()
                running.append((track, contents))
                ending = contents.ending
            }
            rows.append((track, TimelineTrack(recording, ending: ending, note: tracks.notes[track])))
        }
        self.tracks = TimelineRows(rows, recorded: tracks.count)
        let now = clock.now()
        self.now = now
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
