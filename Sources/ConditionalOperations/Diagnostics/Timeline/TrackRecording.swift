import Foundation

/// One operation an ``OperationTimeline`` records: its entry (its type, its name, where it runs)
/// and the spans of its life, which it is told by the operation's ``TimelineSink``.
///
/// The operation sends to its sinks under its own lock, so recording a change takes no lock of the
/// recording's and none of the timeline's: the spans are written under the operation's lock, and
/// exports read a running operation's there too (``withOperationLock(_:)``). As the operation
/// finishes its spans join the timeline's (their array is shared, not copied), and its recording
/// changes no more.
final class TrackRecording: @unchecked Sendable {
    // `contents` and `isFinished` are written under the recorded operation's mutex, and not after
    // it finished; `track` is written once under the timeline's lock, before the operation is told
    // of the recording.

    /// What it recorded so far.
    struct Contents {
        /// Spans ended, oldest first.
        var closed: [TimelineSpan] = []
        /// Its open top-level span, and its open nested one (a wait for categories).
        var openSpan: TimelineSpan?
        var openNested: TimelineSpan?
        /// When it was cancelled, if it was.
        var cancelledAt: UInt64?
        var wasCancelled: Bool { cancelledAt != nil }
        /// It began executing (one finished without it was cancelled, skipped or failed a condition).
        var executed = false
        /// The keys of the categories, limits and permits it holds, until it finishes.
        var held: [String] = []
        /// When it finished, and with which errors, once it did.
        var finished: (at: UInt64, errors: [any Error])?
    }

    /// Not retained: the operation's sink keeps the timeline alive while it records, and the
    /// timeline lists the recordings (a reference back would keep it alive forever).
    unowned(unsafe) let timeline: OperationTimeline
    /// The timeline's, read at every change.
    private let clock: TimelineClock
    /// The recorded operation, whose lock guards the recording while it runs (``LockTable``).
    private let operation: ObjectIdentifier
    /// Its type and `name`, read when it was added; put together as diagnoses show them
    /// (`ClosureOperation<()> 'upload'`) only when exported: naming a type costs more than the
    /// rest of the recording.
    let type: Foundation.Operation.Type
    let givenName: String?
    /// The track of the composite or group it runs in, if it was recorded.
    let parent: Int?
    /// The queue that admitted it (a group's own queue for its children), if one did: those
    /// waiting for a slot beside it wait for one of that queue.
    let queue: ObjectIdentifier?
    /// Its row, given as the timeline lists it (``TimelineState/add(_:)``).
    var track = -1
    /// It finished: its contents change no more.
    private(set) var isFinished = false
    /// The operation's lock makes its accesses exclusive: the run-time check of each is not made.
    @exclusivity(unchecked) var contents = Contents()

    /// `operation`: the object whose lock (``LockTable``) it is sent to under.
    init(
        timeline: OperationTimeline, operation: ObjectIdentifier, type: Foundation.Operation.Type,
        name: String?, parent: Int?, queue: ObjectIdentifier?
    ) {
        self.timeline = timeline
        clock = timeline.clock
        self.operation = operation
        self.type = type
        self.givenName = name
        self.parent = parent
        self.queue = queue
        contents.closed.reserveCapacity(4)  // an operation's spans without conditions: no regrowth
    }

    /// Runs `body` under the recorded operation's lock, for a caller that is not sent an event:
    /// what it reads or writes is what the events write.
    func withOperationLock<Result>(_ body: () -> Result) -> Result {
        LockTable.mutex(for: operation).withLock(body)
    }

    // MARK: Events, under the operation's lock (``TimelineSink``)

    func send(_ event: OperationEvent) {
        switch event {
        case .stateChanged(.finished): break  // `didFinish`, which comes with it, ends the recording
        case .stateChanged(let state): contents.enter(state, track: track, at: clock.now())
        case .didCancel: cancelled(at: clock.now())
        case .didFinish(let errors): finish(errors: errors, at: clock.now())
        case .didStart, .didProduce: break  // the state change to `executing` tells the start
        }
    }

    func send(_ event: LogEvent) {
        let now = clock.now()
        switch event {
        case .conditionEvaluated(let condition, let result, let since):
            let elapsed = UInt64(since.seconds() * 1e9)
            contents.addCondition(
                condition, result, track: track, from: now &- min(elapsed, now), to: now)
        case .waitingForCategories(let categories, let ahead):
            contents.closeNested(at: now)
            contents.openNested = TimelineSpan(
                track: track, kind: .categories, start: now,
                reason: .categories(Array(categories), ahead: ahead))
        case .joined(let type, let name):
            // Its wait since it was added is for the operation it joined.
            let start = contents.openSpan?.start ?? now
            contents.openSpan = TimelineSpan(
                track: track, kind: .joined, start: start, reason: .joined(type, name: name))
        case .acquiredCategories(let categories, _), .grantedCategories(let categories):
            // It holds them from now on: its wait for them ends.
            contents.closeNested(at: now)
            contents.held = Array(categories)
        }
    }

    /// It was cancelled: it ends cancelled, whatever it does until it finishes. Under the
    /// operation's lock; said of its track if it finished meanwhile.
    func cancelled(at now: UInt64) {
        guard isFinished else { return contents.cancel(at: now) }
        timeline.state.withLock { $0.tracks[track].wasCancelled = true }
    }

    /// The operation finished: every span closed, and they join the timeline's. Under the
    /// operation's lock, so that an export reads it either running or with all it recorded.
    func finish(errors: [any Error], at now: UInt64) {
        guard !isFinished else { return }
        contents.closeAll(at: now)
        contents.finished = (now, errors)
        isFinished = true
        timeline.finished(self)
    }

    /// What an export reads of it, listed as running: what it recorded so far, or all it recorded
    /// if it finished since.
    func read() -> Contents {
        withOperationLock { contents }
    }
}

extension TrackRecording.Contents {
    mutating func enter(_ state: ConditionalOperation.State, track: Int, at now: UInt64) {
        if state == .executing { executed = true }
        closeNested(at: now)
        let kind = TimelineSpan.Kind(state)
        if let open = openSpan {
            if kind == open.kind { return }  // told again (the current state)
            openSpan = nil
            close(open, at: now)
        }
        if let kind { openSpan = TimelineSpan(track: track, kind: kind, start: now) }
    }

    /// A condition answered `result`, evaluated from `start` to `end`.
    mutating func addCondition(
        _ condition: any OperationCondition, _ result: OperationConditionResult, track: Int,
        from start: UInt64, to end: UInt64
    ) {
        // Inside the span it was evaluated in: it began no earlier.
        let start = max(start, openSpan?.start ?? start)
        closed.append(
            TimelineSpan(
                track: track, kind: .condition, start: start, end: end, reason: .condition(condition, result))
        )
    }

    mutating func cancel(at now: UInt64) {
        if cancelledAt == nil { cancelledAt = now }
    }

    mutating func closeNested(at now: UInt64) {
        guard let nested = openNested else { return }
        openNested = nil
        close(nested, at: now)
    }

    mutating func closeAll(at now: UInt64) {
        closeNested(at: now)
        guard let open = openSpan else { return }
        openSpan = nil
        close(open, at: now)
    }

    mutating func close(_ span: consuming TimelineSpan, at now: UInt64) {
        span.end = max(now, span.start)
        closed.append(span)
    }
}

/// The ``EventSink`` of a recorded operation: its recording, and the timeline, which lives on while
/// the operation runs even if its queue let go of it. A value of two words, held in the
/// operation's list of sinks without an allocation of its own.
struct TimelineSink: EventSink {
    let timeline: OperationTimeline
    let recording: TrackRecording

    var hearsInitialState: Bool { false }
    var timelineSink: TimelineSink? { self }
    func send(_ event: OperationEvent) { recording.send(event) }
    func send(_ event: LogEvent) { recording.send(event) }
    func end() {}
}
