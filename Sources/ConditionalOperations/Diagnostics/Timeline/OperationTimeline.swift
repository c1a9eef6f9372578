import Dispatch
import Foundation

/// A record of every operation's life on a ``ConditionalOperationQueue``, to see a run as a
/// picture: what each operation waited for (its dependencies, each condition and its answer, a
/// category, a limit or a rate-limit permit, a slot), when it executed, and how it ended.
///
/// Attach one to a queue; operations added from then on are recorded:
///
/// ```swift
/// // Inside a throwing async function:
/// let timeline = OperationTimeline()
/// queue.timeline = timeline
/// queue.addOperations([fetch, upload], waitUntilFinished: false)
/// await upload.untilFinished()
/// let json = timeline.traceEventJSON()  // Data: write it to run.json, open it in Perfetto
/// let page = timeline.html()  // a String: write it to run.html, open it in a browser
/// for warning in timeline.warnings { print(warning) }
/// ```
///
/// ``traceEventJSON()`` is the Trace Event Format, which Perfetto (ui.perfetto.dev) and
/// `chrome://tracing` open as it is: one track per operation. ``html()`` is one self-contained
/// page, one row per operation, the ``warnings`` above it. Without a timeline attached nothing is
/// recorded, at no cost.
///
/// A running operation's spans are kept with it; when it finishes they join the timeline's
/// `capacity` most recent spans, and the oldest are dropped and counted (``droppedSpans``), and
/// let go of with the last of their operation's. Each operation recorded also keeps a small
/// entry (its type, its name, the errors it finished with) until its spans all were dropped,
/// let go of a tenth of a second or so after, and a word of it until the thousand or so recorded
/// around it went, so a timeline attached for as long as a server runs stays within its
/// capacity, but for a word for each operation recorded near one that runs as long.
/// The exports show the operations running and those whose spans are kept. Recording runs none
/// of the user's code and records a change under the operation's own lock; it takes a lock of
/// the timeline's as an operation is added (its arrival's) and another as it finishes (the
/// spans'), so that the threads finishing operations, the one adding them and the timeline's
/// queue letting go of what was dropped do not wait for each other.
/// Names and error descriptions are read when the timeline is exported, and what a dropped span
/// held is let go of on a queue of the timeline's.
///
/// The operations a group, a retry or a repeat runs are recorded under it: a group's children
/// (`ConditionalOperation`s), a retry's attempts, a repeat's iterations.
public final class OperationTimeline: Sendable {
    /// The spans of finished operations kept at most: those that joined the timeline first are
    /// dropped first (a running operation's spans join it as it finishes).
    public let capacity: Int
    let clock: TimelineClock
    /// The clock's reading when the timeline was made: exported times count from it.
    let origin: UInt64
    /// The operations recorded, by track: taken by whoever reads or changes them, which lists
    /// the arrivals first (``withTracks(_:)``).
    let tracks: Locked<TrackTable>
    /// The operations recorded and not listed yet: the thread adding operations takes this lock
    /// alone. Taken after the rows' where both are held.
    let arrivals = Locked(TrackArrivals())
    /// The spans of the finished operations, written by the threads finishing them: not behind
    /// the rows' lock, so that those threads and the timeline's queue do not wait for each
    /// other at every operation. Taken before the rows' lock where both are held.
    let kept: Locked<KeptSpans>
    /// Where the operations whose spans were all dropped to stay within ``capacity`` are let go
    /// of, recordings and spans: recording runs under the recorded operation's lock, and what a
    /// span holds may be the last reference to user code.
    private let releaser = DispatchQueue(label: "ConditionalOperations.timeline")
    /// How long dropped spans wait to be let go of, with those dropped after them: each release
    /// wakes a thread, which on a machine of few cores takes a core from the operations (on two
    /// cores, a release every 10 ms made recording an operation cost about 3% more of its time).
    /// What is dropped meanwhile stays in memory as long.
    static let releaseDelay = DispatchTimeInterval.milliseconds(100)

    /// A timeline keeping the spans of finished operations up to `capacity` (at least 1), those
    /// that joined it first dropped first.
    public convenience init(capacity: Int = 100_000) {
        self.init(capacity: capacity, clock: .system)
    }

    /// A timeline reading `clock` (nanoseconds, never decreasing) for its times: tests pass a
    /// clock of their own.
    convenience init(capacity: Int, clock: @escaping @Sendable () -> UInt64) {
        self.init(capacity: capacity, clock: .given(TimelineClock.GivenClock(clock)))
    }

    private init(capacity: Int, clock: TimelineClock) {
        if capacity < 1 {
            Misuse.trap(
                "OperationTimeline(capacity: \(capacity)): a timeline keeps at least one span (S34: values "
                    + "are checked where they are given)")
        }
        self.capacity = capacity
        self.clock = clock
        self.origin = clock.now()
        self.tracks = Locked(TrackTable())
        self.kept = Locked(KeptSpans(capacity: capacity))
    }

    /// How many spans were dropped to keep within ``capacity`` (what they hold is let go of with
    /// the last of their operation's).
    public var droppedSpans: Int { kept.withLock { $0.dropped } }

    /// How many operations were recorded.
    public var operationCount: Int { arrivals.withLock { $0.count } }

    // MARK: Recording

    /// Starts recording `operation`: its track, then every state change and wait it reports.
    /// Called outside every lock (its `name` is read here).
    func record(_ operation: ConditionalOperation, parent: Int? = nil) {
        let sink = track(operation, parent: parent, queue: nil)
        operation.machine.withLock { sink.attach(to: &$0) }
    }

    /// A track for `operation`, and the sink that records it once attached to it
    /// (``TimelineSink/attach(to:)``), before it is enqueued: a queue attaches it in the trip that
    /// enqueues the operation, one lock trip for both. Called outside every lock (its `name` is
    /// read here). `queue`: the one admitting it, if it is a queue that does.
    func track(_ operation: ConditionalOperation, parent: Int?, queue: ObjectIdentifier?) -> TimelineSink {
        let name = operation.name  // Foundation's, which a subclass may override: read unlocked
        let recording = addTrack(
            lockedBy: ObjectIdentifier(operation), type: type(of: operation), name: name, parent: parent,
            queue: queue)
        // A group's children, a retry's attempts: nested under it. None runs before the composite
        // is enqueued.
        operation.recordInnerOperations(in: TimelineParent(timeline: self, track: recording.track))
        return TimelineSink(timeline: self, recording: recording)
    }

    /// A new track, recorded by the sink returned, which is sent to under the lock of `owner`.
    func addTrack(
        lockedBy owner: ObjectIdentifier, type: Foundation.Operation.Type, name: String?, parent: Int?,
        queue: ObjectIdentifier? = nil
    ) -> TrackRecording {
        let recording = TrackRecording(
            timeline: self, operation: owner, type: type, name: name, parent: parent, queue: queue)
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

    /// The operation of `track` was cancelled after it finished: its recording changes no more,
    /// so it is noted beside its row. Under the operation's lock.
    func noteCancelledAfterFinishing(_ track: Int) {
        withTracks { $0.note(track) { $0.cancelledAfterFinishing = true } }
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
    /// dropped beyond ``capacity`` and let go of elsewhere.
    func finished(_ recording: TrackRecording) {
        guard kept.withLock({ $0.finish(recording) }) else { return }
        // A moment later: a timeline past its capacity drops spans at every finish, and a release
        // at once would wake a thread for nearly each one.
        releaser.asyncAfter(deadline: .now() + Self.releaseDelay) { [kept, tracks, arrivals] in
            Self.letGoOfDropped(kept: kept, tracks: tracks, arrivals: arrivals)
        }
    }

    /// Makes the operations whose spans were all dropped gone, all those dropped so far in one
    /// trip through the rows' lock, which the thread adding operations does not wait for, and
    /// lets go of their recordings outside the locks. Takes one lock at a time: the threads
    /// finishing operations wait for no row.
    private static func letGoOfDropped(
        kept: Locked<KeptSpans>, tracks: Locked<TrackTable>, arrivals: Locked<TrackArrivals>
    ) {
        var more = true
        while more {
            let evicted = kept.withLock { $0.evictedToMakeGone(atMost: .max) }
            let letGo = withTracks(tracks, arrivals) { $0.letGo(evicted) }
            more = kept.withLock { $0.madeGone(evicted.count) }
            withExtendedLifetime(letGo) {}
        }
    }

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

/// The clock of an ``OperationTimeline``, in nanoseconds, never decreasing: the system's, read
/// without calling a closure at every change recorded, or one a test gives.
enum TimelineClock: Sendable {
    case system
    /// Boxed: the clock is one word, copied without a retain when it is the system's.
    case given(GivenClock)

    final class GivenClock: Sendable {
        let read: @Sendable () -> UInt64
        init(_ read: @escaping @Sendable () -> UInt64) { self.read = read }
    }

    @inline(__always)
    func now() -> UInt64 { now(given: nil) }

    /// Now, given `reading`, the ``MonotonicClock`` read in this trip already, if it was: the
    /// system's clock is not read again.
    @inline(__always)
    func now(given reading: UInt64?) -> UInt64 {
        switch self {
        case .system: return reading ?? MonotonicClock.nanoseconds()
        case .given(let clock): return clock.read()
        }
    }
}

/// Where the operations a composite runs are recorded: its timeline, under its track.
struct TimelineParent: Sendable {
    let timeline: OperationTimeline
    let track: Int

    func record(_ operation: ConditionalOperation) {
        timeline.record(operation, parent: track)
    }
}
