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
/// `capacity` most recent spans, and the oldest are let go of and counted (``droppedSpans``).
/// Each operation recorded also keeps a small entry (its type, its name, the errors it finished
/// with). Recording runs none of the user's code, and takes the timeline's own lock only as an
/// operation is added and as it finishes: names and error descriptions are read when the
/// timeline is exported, and what a dropped span held is let go of on a queue of the timeline's.
///
/// The operations a group, a retry or a repeat runs are recorded under it: a group's children
/// (`ConditionalOperation`s), a retry's attempts, a repeat's iterations.
public final class OperationTimeline: Sendable {
    /// The spans of finished operations kept at most: those that joined the timeline first are
    /// dropped first (a running operation's spans join it as it finishes).
    public let capacity: Int
    let clock: @Sendable () -> UInt64
    let state: Locked<TimelineState>
    /// Where the spans dropped to stay within ``capacity`` are let go of: recording runs under the
    /// recorded operation's lock, and what a span holds may be the last reference to user code.
    private let releaser = DispatchQueue(label: "ConditionalOperations.timeline")
    /// How long dropped spans wait to be let go of, with those dropped after them.
    static let releaseDelay = DispatchTimeInterval.milliseconds(10)

    /// A timeline keeping the spans of finished operations up to `capacity` (at least 1), those
    /// that joined it first dropped first.
    public convenience init(capacity: Int = 100_000) {
        self.init(capacity: capacity) { DispatchTime.now().uptimeNanoseconds }
    }

    /// A timeline reading `clock` (nanoseconds, never decreasing) for its times: tests pass a
    /// clock of their own.
    init(capacity: Int, clock: @escaping @Sendable () -> UInt64) {
        if capacity < 1 {
            Misuse.trap(
                "OperationTimeline(capacity: \(capacity)): a timeline keeps at least one span (S34: values "
                    + "are checked where they are given)")
        }
        self.capacity = capacity
        self.clock = clock
        self.state = Locked(TimelineState(capacity: capacity, origin: clock()))
    }

    /// How many spans were let go of to keep within ``capacity``.
    public var droppedSpans: Int { state.withLock { $0.dropped } }

    /// How many operations were recorded.
    public var operationCount: Int { state.withLock { $0.tracks.count } }

    // MARK: Recording

    /// Starts recording `operation`: its track, then every state change and wait it reports.
    /// Called outside every lock (its `name` is read here).
    /// `queue`: the one admitting it, if it is a queue that does.
    func record(_ operation: ConditionalOperation, parent: Int? = nil, queue: ObjectIdentifier? = nil) {
        let name = operation.name  // Foundation's, which a subclass may override: read unlocked
        let recording = addTrack(type: type(of: operation), name: name, parent: parent, queue: queue)
        let sink = TimelineSink(timeline: self, recording: recording)
        switch operation.addEventSink(sink) {
        case .added(let isCancelled):
            // Cancelled before it was recorded: no `didCancel` comes.
            if isCancelled { cancelled(recording) }
        case .tellFinished(let errors):
            finished(recording, errors: errors)
            if operation.isCancelled { cancelled(recording) }
        }
        // A group's children, a retry's attempts: nested under it.
        operation.recordInnerOperations(in: TimelineParent(timeline: self, track: recording.track))
    }

    /// A new track, and where its operation records its spans.
    func addTrack(
        type: Foundation.Operation.Type, name: String?, parent: Int?, queue: ObjectIdentifier? = nil
    )
        -> TrackRecording
    {
        let storage = TrackRecording.storage()
        return state.withLock {
            $0.addTrack(type: type, name: name, parent: parent, queue: queue, storage: storage)
        }
    }

    /// The composite of track `parent` runs `operation`, which the timeline does not record,
    /// until it finished.
    func runsUnrecorded(_ operation: Foundation.Operation, under parent: Int) {
        state.withLock { $0.tracks[parent].unrecordedRunning += 1 }
        FinishWatcher(watching: operation) { [self] in
            state.withLock { $0.tracks[parent].unrecordedRunning -= 1 }
        }
    }

    /// The operation of `recording` changed state.
    func stateChanged(_ recording: TrackRecording, to newState: ConditionalOperation.State) {
        recording.enter(newState, at: clock())
    }

    /// The operation of `recording` reported a wait or an answer.
    func logged(_ recording: TrackRecording, _ event: LogEvent) {
        let now = clock()
        switch event {
        case .conditionEvaluated(let condition, let result, let since):
            let elapsed = UInt64(since.seconds() * 1e9)
            recording.addCondition(condition, result, from: now &- min(elapsed, now), to: now)
        case .waitingForCategories(let categories, let ahead):
            recording.openNested(.categories, reason: .categories(Array(categories), ahead: ahead), at: now)
        case .joined(let type, let name):
            recording.joined(.joined(type, name: name), at: now)
        case .acquiredCategories(let categories, _), .grantedCategories(let categories):
            recording.acquired(Array(categories), at: now)
        }
    }

    /// The operation of `recording` was cancelled: it ends cancelled, whatever it does until it
    /// finishes. Said of its track if it finished meanwhile (its recording is read no more).
    func cancelled(_ recording: TrackRecording) {
        let now = clock()
        state.withLock { $0.cancelled(recording, at: now) }
    }

    /// The operation of `recording` finished: its spans join the ring, the oldest dropped beyond
    /// ``capacity`` and let go of elsewhere.
    func finished(_ recording: TrackRecording, errors: [any Error]) {
        let now = clock()
        let needsRelease = state.withLock { state in
            state.finish(recording, errors: errors, at: now)
            return state.evictedNeedRelease()
        }
        guard needsRelease else { return }
        // A moment later: a timeline past its capacity drops spans at every finish, and a release
        // at once would wake a thread for nearly each one.
        releaser.asyncAfter(deadline: .now() + Self.releaseDelay) { [state] in
            let evicted = state.withLock { $0.takeEvicted() }
            withExtendedLifetime(evicted) {}
        }
    }

    /// What the exports read: every track and span, the open ones closed at `now` (marked open).
    func snapshot() -> TimelineSnapshot {
        // The clock is read after the recordings were: no span copied ends after `now`.
        let (tables, now) = state.withLock { ($0.tables(), clock()) }
        return TimelineSnapshot(
            origin: tables.origin, now: now, tracks: tables.tracks, ring: tables.ring, head: tables.head,
            dropped: tables.dropped, running: tables.running)
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

/// An ``EventSink`` recording one operation in its timeline. Sent under the operation's lock: it
/// takes its recording's lock for a moment, and the timeline's only when the operation finishes.
/// A class: the operation copies its sinks as it sends to them, and a class is one reference.
final class TimelineSink: EventSink {
    let timeline: OperationTimeline
    let recording: TrackRecording

    init(timeline: OperationTimeline, recording: TrackRecording) {
        self.timeline = timeline
        self.recording = recording
    }

    func send(_ event: OperationEvent) {
        switch event {
        case .stateChanged(.finished): break  // `didFinish`, which comes with it, ends the recording
        case .stateChanged(let state): timeline.stateChanged(recording, to: state)
        case .didCancel: timeline.cancelled(recording)
        case .didFinish(let errors): timeline.finished(recording, errors: errors)
        case .didStart, .didProduce: break  // the state change to `executing` tells the start
        }
    }

    func send(_ event: LogEvent) {
        timeline.logged(recording, event)
    }

    func end() {}
}
