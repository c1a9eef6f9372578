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
/// It keeps the `capacity` most recent finished spans and counts the ones it let go of
/// (``droppedSpans``); each operation recorded also keeps a small entry (its type, its name, the
/// errors it finished with). Recording takes the timeline's own lock for a moment and runs none
/// of the user's code: names and error descriptions are read when the timeline is exported, and
/// what a dropped span held is let go of on a queue of the timeline's.
///
/// The operations a group, a retry or a repeat runs are recorded under it: a group's children
/// (`ConditionalOperation`s), a retry's attempts, a repeat's iterations.
public final class OperationTimeline: Sendable {
    /// The spans kept at most: the oldest are dropped first.
    public let capacity: Int
    let clock: @Sendable () -> UInt64
    let state: Locked<TimelineState>
    /// Where the spans dropped to stay within ``capacity`` are let go of: recording runs under the
    /// recorded operation's lock, and what a span holds may be the last reference to user code.
    private let releaser = DispatchQueue(label: "ConditionalOperations.timeline")

    /// A timeline keeping at most `capacity` spans (at least 1), the oldest dropped first.
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

    /// How many spans were let go of to keep within ``capacity``, oldest first.
    public var droppedSpans: Int { state.withLock { $0.dropped } }

    /// How many operations were recorded.
    public var operationCount: Int { state.withLock { $0.tracks.count } }

    // MARK: Recording

    /// Starts recording `operation`: its track, then every state change and wait it reports.
    /// Called outside every lock (its `name` is read here).
    func record(_ operation: ConditionalOperation, parent: Int? = nil) {
        let name = operation.name  // Foundation's, which a subclass may override: read unlocked
        let track = state.withLock { $0.addTrack(type: type(of: operation), name: name, parent: parent) }
        let sink = TimelineSink(timeline: self, track: track)
        if case .tellFinished(let errors) = operation.addEventSink(sink) {
            finished(track, errors: errors)
        }
        // Cancelled before it was recorded: no `didCancel` comes.
        if operation.isCancelled { cancelled(track) }
        // A group's children, a retry's attempts: nested under it.
        operation.recordInnerOperations(in: TimelineParent(timeline: self, track: track))
    }

    /// Runs `change` under the timeline's lock, then lets go of the spans it dropped elsewhere.
    private func change(_ change: (inout TimelineState) -> Void) {
        let evicted = state.withLock { state in
            change(&state)
            return state.takeEvicted()
        }
        guard !evicted.isEmpty else { return }
        releaser.async { withExtendedLifetime(evicted) {} }
    }

    /// The state of a recorded operation changed.
    func stateChanged(_ track: Int, to newState: ConditionalOperation.State) {
        let now = clock()
        change { $0.enter(newState, track: track, at: now) }
    }

    /// A recorded operation reported a wait or an answer.
    func logged(_ track: Int, _ event: LogEvent) {
        let now = clock()
        change { state in
            switch event {
            case .conditionEvaluated(let condition, let result, let since):
                let elapsed = UInt64(since.seconds() * 1e9)
                state.addCondition(condition, result, track: track, from: now &- min(elapsed, now), to: now)
            case .waitingForCategories(let categories):
                let names = categories.map(ExclusivityController.unscopedName).sorted()
                state.openNested(.categories, reason: .categories(names), track: track, at: now)
            case .acquiredCategories:
                state.closeNested(track: track, at: now)
            }
        }
    }

    /// A recorded operation was cancelled: it ends cancelled, whatever it does until it finishes.
    func cancelled(_ track: Int) {
        state.withLock { $0.tracks[track].wasCancelled = true }
    }

    /// A recorded operation finished.
    func finished(_ track: Int, errors: [any Error]) {
        let now = clock()
        change { $0.finish(track, errors: errors, at: now) }
    }

    /// What the exports read: every track and span, the open ones closed at `now` (marked open).
    func snapshot() -> TimelineSnapshot {
        // The clock is read under the lock: no span recorded meanwhile ends after `now`.
        let tables = state.withLock { $0.tables(at: clock()) }
        return TimelineSnapshot(
            origin: tables.origin, now: tables.now, tracks: tables.tracks, ring: tables.ring,
            head: tables.head,
            dropped: tables.dropped)
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
/// only takes the timeline's lock, for a moment.
struct TimelineSink: EventSink {
    let timeline: OperationTimeline
    let track: Int

    func send(_ event: OperationEvent) {
        switch event {
        case .stateChanged(let state): timeline.stateChanged(track, to: state)
        case .didCancel: timeline.cancelled(track)
        case .didFinish(let errors): timeline.finished(track, errors: errors)
        case .didStart, .didProduce: break  // the state change to `executing` tells the start
        }
    }

    func send(_ event: LogEvent) {
        timeline.logged(track, event)
    }

    func end() {}
}
