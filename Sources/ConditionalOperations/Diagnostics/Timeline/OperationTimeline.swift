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
/// held is let go of on a queue of the timeline's (or with the timeline, if it goes first). The
/// operations it records do not hold it (but a group, a retry or a repeat, to record what it
/// runs): once it is let go of, what it recorded lives on until the last of them finished (or was
/// let go of unfinished), and goes then, on that queue.
///
/// The operations a group, a retry or a repeat runs are recorded under it: a group's children
/// (`ConditionalOperation`s), a retry's attempts, a repeat's iterations.
public final class OperationTimeline: Sendable {
    /// The spans of finished operations kept at most: those that joined the timeline first are
    /// dropped first (a running operation's spans join it as it finishes).
    public let capacity: Int
    /// What it records, which the operations it records reach without holding the timeline.
    let storage: TimelineStorage

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
        storage = TimelineStorage(capacity: capacity, clock: clock)
    }

    deinit {
        storage.timelineLetGo()
    }

    /// How many spans were dropped to keep within ``capacity`` (what they hold is let go of with
    /// the last of their operation's).
    public var droppedSpans: Int { storage.kept.withLock { $0.dropped } }

    /// How many operations were recorded.
    public var operationCount: Int { storage.arrivals.withLock { $0.count } }

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
        let recording = storage.addTrack(
            lockedBy: ObjectIdentifier(operation), type: type(of: operation), name: name, parent: parent,
            queue: queue)
        // A group's children, a retry's attempts: nested under it. None runs before the composite
        // is enqueued.
        operation.recordInnerOperations(in: TimelineParent(timeline: self, track: recording.track))
        return TimelineSink(recording: recording)
    }

    /// The composite of track `parent` runs `operation`, which the timeline does not record,
    /// until it finished.
    func runsUnrecorded(_ operation: Foundation.Operation, under parent: Int) {
        storage.runsUnrecorded(operation, under: parent)
    }

    /// What the exports read: every track and span, the open ones closed at `now` (marked open).
    func snapshot() -> TimelineSnapshot {
        storage.snapshot()
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
