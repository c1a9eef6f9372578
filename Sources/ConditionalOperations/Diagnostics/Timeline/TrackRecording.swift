import ConditionalOperationsMachines
import Foundation

/// What an ``OperationTimeline`` records of one operation: what its row shows besides its spans
/// (its type, its name, where it runs), read as it was added, and the marks its spans are made of
/// (``TrackLog``), told by the operation's ``TimelineSink``. The timeline lists it by track
/// (``TrackTable``); an export makes its row of it (``TimelineTrack``).
///
/// The operation tells its sinks under its own lock, so recording a change takes no lock of the
/// recording's and none of the timeline's: the marks are written under the operation's lock, as
/// the machine makes each change, and given their time once the machine's event is over (the
/// machine reads no clock); exports copy a running operation's log there too
/// (``withOperationLock(_:)``) and make its spans outside. As the operation finishes the timeline
/// keeps it with the spans of the others that finished, and it changes no more.
///
/// It is a ``SinkLog``: when the timeline's sink is the first an operation is given, as for most
/// operations a timeline records, the recording is the operation's log of its sinks, one object
/// for both, told every change directly rather than through a buffer of messages.
final class TrackRecording: SinkLog, @unchecked Sendable {
    // `log` and `isFinished` are written under the recorded operation's mutex, and not after it
    // finished; `track` is written once under the lock of the timeline's arrivals
    // (``TrackArrivals``), before the operation is told of the recording. The rest is constant.

    /// Not retained: the storage lives until every recording it began ended
    /// (``TimelineStorage/timelineLetGo()``), and lists the recordings (a reference back would
    /// keep it alive forever).
    unowned(unsafe) let storage: TimelineStorage
    /// The timeline's, read at every stamp (through `storage`, its read would retain the storage).
    let clock: TimelineClock
    /// The recorded operation, whose lock guards the recording while it runs (``LockTable``).
    private let operation: ObjectIdentifier
    /// Its track: its place among the operations the timeline recorded, given as it arrives
    /// (``TrackArrivals/add(_:)``).
    var track = -1
    /// Its operation's type and `name`, read when it was added (put together as diagnoses show
    /// them only when exported: naming a type costs more than the rest of the recording).
    let type: Foundation.Operation.Type
    let givenName: String?
    /// The track of the composite or group it runs in, if that was recorded.
    let parent: Int?
    /// The queue that admitted it (a group's own queue for its children), if one did.
    let queue: ObjectIdentifier?
    /// How many spans it made: read once it finished.
    var spanCount: Int { Int(log.spanCount) }
    /// It finished: its log changes no more.
    @exclusivity(unchecked) private(set) var isFinished = false
    /// A cancel and the finish recorded, not stamped yet.
    @exclusivity(unchecked) private var cancelDue = false
    @exclusivity(unchecked) private var finishDue: [any Error]?
    /// The operation's lock makes its accesses exclusive: the run-time check of each is not made.
    @exclusivity(unchecked) private(set) var log = TrackLog()

    /// `operation`: the object whose lock (``LockTable``) it is sent to under.
    init(
        storage: TimelineStorage, operation: ObjectIdentifier, type: Foundation.Operation.Type,
        name: String?, parent: Int?, queue: ObjectIdentifier?
    ) {
        self.storage = storage
        clock = storage.clock
        self.operation = operation
        self.type = type
        givenName = name
        self.parent = parent
        self.queue = queue
        super.init(letsGoAtEnd: true)
    }

    /// Runs `body` under the recorded operation's lock, for a caller that is not sent an event:
    /// what it reads or writes is what the events write.
    func withOperationLock<Result>(_ body: () -> Result) -> Result {
        LockTable.mutex(for: operation).withLock(body)
    }

    // MARK: Events, under the operation's lock (``TimelineSink``)

    /// Told by a ``SinkLog`` it is the one sink of: recorded as the machine tells it, stamped with
    /// the time once the machine's event is over (``stamp()``).
    /// Returns whether it recorded something, to be stamped.
    @discardableResult
    func record(_ event: OperationEvent) -> Bool {
        switch event {
        case .stateChanged(.finished): return false  // `didFinish`, which comes with it, ends it
        case .stateChanged(let state): log.mark(state)
        case .didCancel: cancelDue = true
        case .didFinish(let errors): finishDue = errors
        case .didStart, .didProduce: return false  // the state change to `executing` tells the start
        }
        return true
    }

    func record(_ event: LogEvent) {
        switch event {
        case .conditionEvaluated(let condition, let result, let since):
            log.mark(.condition(condition, result, began: since, elapsed: 0))
        case .waitingForCategories(let categories, let ahead):
            log.mark(.waitingForCategories(Array(categories), ahead: ahead))
        case .joined(let type, let name):
            log.mark(.joined(type, name: name))
        case .acquiredCategories(let categories, _), .grantedCategories(let categories):
            log.mark(.holding(Array(categories)))
        }
    }

    /// What was recorded since the last stamp happened now: the marks get their time, a cancel
    /// or the finish told is recorded. `reading`: the ``MonotonicClock``, if the trip read it.
    func stamp(reading: UInt64? = nil) {
        let now = clock.now(given: reading)
        if !log.isStamped { log.stamp(at: now) }
        if cancelDue {
            cancelDue = false
            cancelled(at: now)
        }
        if let errors = finishDue.take() {
            finish(errors: consume errors, at: now)
        }
    }

    /// Told by a ``SinkLog`` with other sinks: recorded and stamped at once.
    func send(_ event: OperationEvent) {
        record(event)
        stamp()
    }

    func send(_ event: LogEvent) {
        record(event)
        stamp()
    }

    /// It was cancelled: it ends cancelled, whatever it does until it finishes. Under the
    /// operation's lock. Its operation tells it of a cancel before it tells it of the end, and
    /// nothing after: one that ended records nothing more, and reaches nothing of the timeline's,
    /// which may be gone.
    func cancelled(at now: UInt64) {
        guard !isFinished else { return }
        if log.cancelledAt == nil { log.cancelledAt = now }
    }

    /// The operation finished: its spans are counted, and join those the timeline keeps. Under
    /// the operation's lock, so that an export reads it either running or with all it recorded.
    func finish(errors: consuming [any Error], at now: UInt64) {
        guard !isFinished else { return }
        log.finished = (now, consume errors)
        isFinished = true
        withStorage { $0.finished(self) }
    }

    /// The operation was let go of before it finished: it records no more. In its `deinit`.
    func letGoUnfinished() {
        guard !isFinished else { return }
        isFinished = true
        withStorage { $0.endedUnfinished() }
    }

    /// Runs `body` with the storage, reached without a retain: its count would be written by
    /// every thread that finishes an operation, at once on several cores. It lives until this
    /// recording ended (``TimelineStorage/timelineLetGo()``).
    @inline(__always)
    private func withStorage<Result>(_ body: (TimelineStorage) -> Result) -> Result {
        Unmanaged.passUnretained(storage)._withUnsafeGuaranteedRef(body)
    }

    /// What an export reads of it, listed as running: what it recorded so far, or all it recorded
    /// if it finished since. The log is copied under the operation's lock, its spans made outside.
    func read() -> TrackContents {
        withOperationLock { log }.replay(track: track)
    }

    /// Its spans, once it finished (its log changes no more).
    func spans() -> [TimelineSpan] {
        log.replay(track: track).closed
    }
}

/// The ``EventSink`` of a recorded operation: its recording. A value of one word, held in the
/// operation's list of sinks without an allocation of its own, which holds neither the recording
/// nor the timeline: what it records lives on while the operation runs even if the timeline was let
/// go of (``TimelineStorage/timelineLetGo()``).
struct TimelineSink: EventSink {
    /// Not retained: the timeline lists it until its operation finished, and it may be the log
    /// that holds this sink.
    unowned(unsafe) let recording: TrackRecording

    /// Added to the sinks of `machine`, its operation's, under its lock: from then on the
    /// recording hears every change. One cancelled or finished before is recorded so.
    func attach(to machine: inout Machine) {
        switch machine.addEventSink(self) {
        case .added(let isCancelled):
            // Cancelled before it was recorded: no `didCancel` comes.
            if isCancelled { recording.cancelled(at: recording.clock.now()) }
        case .tellFinished(let errors):
            let now = recording.clock.now()
            if machine.isCancelled { recording.cancelled(at: now) }
            recording.finish(errors: errors, at: now)
        }
    }

    var hearsInitialState: Bool { false }
    var timelineSink: TimelineSink? { self }
    func send(_ event: OperationEvent) { recording.send(event) }
    func send(_ event: LogEvent) { recording.send(event) }
    func end() {}
}
