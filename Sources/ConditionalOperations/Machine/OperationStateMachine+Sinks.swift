import Foundation

/// Event sinks: listeners told of every state change and callback as it happens, in the machine's
/// order (S1, S16). The machine only writes what they are to be told into its ``SinkLog``; the
/// operation's storage sends it before unlocking, in the same trip (`MachineLock`). A sink runs no
/// user code there: an `events` stream resumes its consumer's task, a logger's sink queues the
/// record for the logger's own serial queue. Sinks are not among the observers, which the runner
/// calls: they hear everything as messages.
protocol EventSink {
    /// It is told `didStart`: the operation's start then goes through its callbacks (an `events`
    /// stream yields it in order), where one that nobody hears of executes at once. A logger and a
    /// timeline learn the start from the state `executing`.
    var hearsStart: Bool { get }
    /// It is told the state `initialized` when it is added in it (an `events` stream yields it, a
    /// logger logs it; a timeline draws nothing for it).
    var hearsInitialState: Bool { get }
    /// It, if it is a timeline's: sent to directly, without the existential (``SinkList``).
    var timelineSink: TimelineSink? { get }
    func send(_ event: OperationEvent)
    /// The operation finished: nothing follows.
    func end()
    /// Condition answers and category waits, which only loggers hear of.
    func send(_ event: LogEvent)
}

extension EventSink {
    var hearsStart: Bool { false }
    var hearsInitialState: Bool { true }
    var timelineSink: TimelineSink? { nil }
    func send(_ event: LogEvent) {}
}

/// What only loggers hear of, as the machine knows it: the condition itself, whose name is user
/// code, read by the logger's queue, and when the wait began (the sink reads the clock).
enum LogEvent {
    case conditionEvaluated(any OperationCondition, OperationConditionResult, since: Uptime)
    /// With how many requests were ahead in the longest of their lines, holders included.
    case waitingForCategories(Set<String>, ahead: Int)
    case acquiredCategories(Set<String>, since: Uptime)
    /// Granted as they were requested, without a wait: a timeline records that they are held
    /// (loggers, which tell waits, say nothing).
    case grantedCategories(Set<String>)
    /// Joined another operation (S27), of this type and `name`: a timeline records the wait as a
    /// join (loggers tell its state, `pending`).
    case joined(Foundation.Operation.Type, name: String?)
}

/// One thing to tell the event sinks.
enum SinkMessage {
    /// To every sink.
    case event(OperationEvent)
    /// To every sink; loggers alone act on it.
    case log(LogEvent)
    /// The state now, to a sink just added.
    case current(ConditionalOperation.State, to: any EventSink)
    /// The state `finished`, `didFinish`, then the end, to these sinks: the machine lets go of its
    /// observers in the same event.
    case end([any Error], sinks: SinkList)
}

extension OperationStateMachine {
    enum AddEventSinkAction {
        /// Told of every change from now on; `isCancelled`: a cancel came before (no `didCancel`
        /// will).
        case added(isCancelled: Bool)
        /// Already finished: the caller tells it the end itself, with these errors.
        case tellFinished([any Error])
    }

    /// Adds an event sink, which is told the current state first.
    mutating func addEventSink(_ sink: any EventSink) -> AddEventSinkAction {
        switch phase {
        case .finished:
            // Nothing will change any more.
            return .tellFinished(errors)
        case .initialized, .pending, .evaluating, .acquiring, .joining, .ready, .executing, .draining,
            .finishing:
            // Told of every change from now on.
            let current = state
            listeners.addSink(sink, toldOf: current)
            listenerMarks.addedSink(toldOf: current, hearingStart: sink.hearsStart)
            return .added(isCancelled: isCancelled)
        }
    }

    /// Whether some event sink listens.
    var hasEventSinks: Bool { listeners.sinkLog != nil }

    /// What the current event wrote for the sinks; `nil` if nothing.
    @inline(__always)
    var sinkMessages: SinkLog? {
        guard let log = listeners.sinkLog, log.hasMessages else { return nil }
        return log
    }

    /// Writes `event` for every sink. Callers check ``hasEventSinks`` first, so that an operation
    /// without sinks does not even make the event.
    mutating func tellSinks(_ event: LogEvent) {
        listeners.sinkLog?.tell(event)
    }

    /// The public state is `current`: the sinks hear of it if it changed.
    mutating func noteState(_ current: ConditionalOperation.State) {
        guard current != sinksTold else { return }
        listenerMarks.told(current)
        listeners.sinkLog?.tell(.stateChanged(current))
    }

    /// A callback is told when it is queued, which is the order of S1; `didFinish` comes once
    /// finished (``noteFinishedForSinks()``).
    mutating func noteCallback(_ effect: Effect) {
        switch effect {
        case .didStart: listeners.sinkLog?.tell(.didStart)
        case .didProduce(let operation): listeners.sinkLog?.tell(.didProduce(operation))
        case .didCancel(let errors): listeners.sinkLog?.tell(.didCancel(errors))
        case .finish: break
        }
    }

    /// The sinks' last message, as the operation finishes: it tells the state `finished` itself.
    /// Returns the sinks, which the caller lets go of once unlocked: the message sent under the
    /// lock must not hold the last reference to one (a timeline its queue let go of, and what its
    /// spans hold; a logger's channel).
    mutating func noteFinishedForSinks() -> SinkList {
        guard hasEventSinks else { return SinkList() }
        listenerMarks.told(.finished)
        let sinks = listeners.sinkLog?.takeSinks() ?? SinkList()
        listeners.sinkLog?.tellEnd(errors, to: sinks)
        return sinks
    }
}

extension OperationStateMachine {
    /// The sinks, taken out as the operation is deallocated, finished or not (nothing is sent
    /// to them any more), to be let go of by the caller.
    mutating func takeSinksAtDeallocation() -> SinkList? {
        listeners.sinkLog?.takeSinks()
    }

    /// The log of the sinks, once it sent the end and is let go of then
    /// (``SinkLog/isLetGoOfAtEnd``), taken out for the storage to let go of after unlocking.
    mutating func takeEndedSinkLog() -> SinkLog? {
        listeners.takeSinkLog()
    }
}

/// Event sinks: a timeline's sent to directly (the one sink most recorded operations have, told
/// of every change: no existential to copy and call through), the others in the order they were
/// added, which allocates nothing until there is one. Each sink hears the messages in the
/// machine's order; a timeline's hears each before the others.
struct SinkList {
    private var timeline: TimelineSink?
    private var others: [any EventSink] = []

    mutating func append(_ sink: any EventSink) {
        if timeline == nil, let sink = sink.timelineSink {
            timeline = sink
        } else {
            others.append(sink)
        }
    }

    /// The timeline's recording, if the timeline's is the one sink.
    var timelineAlone: TrackRecording? {
        others.isEmpty ? timeline?.recording : nil
    }

    func send(_ event: OperationEvent) {
        timeline?.send(event)
        for index in others.indices { others[index].send(event) }
    }

    func send(_ event: LogEvent) {
        timeline?.send(event)
        for index in others.indices { others[index].send(event) }
    }

    /// The state `finished`, `didFinish`, then the end, to each.
    func end(errors: [any Error]) {
        timeline?.end(errors: errors)
        for index in others.indices { others[index].end(errors: errors) }
    }
}

extension EventSink {
    fileprivate func end(errors: [any Error]) {
        send(.stateChanged(.finished))
        send(.didFinish(errors))
        end()
    }
}

/// The event sinks, and what they are to be told: the messages the machine wrote during the
/// current event, in order, which the operation's storage sends before unlocking.
///
/// A class, made once for an operation's life when its first sink is added and written under the
/// operation's lock like the rest of the machine: its buffer is reused by every event, and the
/// machine keeps one word for it, as for the list it replaced (the memory target counts bytes per
/// operation). The sinks are listed here alone, not among the observers: they hear everything as
/// messages. The operation's lock is what makes its accesses exclusive:
/// the run-time check of each is not made.
///
/// Not final: a timeline's ``TrackRecording`` is one, and is its operation's log when the
/// timeline's is the first sink added, which most recorded operations have alone: one object
/// made for both. Its members are final.
class SinkLog {
    @exclusivity(unchecked) final private(set) var sinks = SinkList()
    @exclusivity(unchecked) final private(set) var messages: [SinkMessage] = []
    /// The timeline's recording, while it is the one sink: told each message as it is written,
    /// without a time, which it is given as the messages are sent (``send()``). Most recorded
    /// operations have that sink alone, and it hears every change: a buffer of messages for it
    /// was most of what recording cost. Not retained, and called without a retain: the timeline
    /// lists its running recordings, and this log may be the recording itself.
    @exclusivity(unchecked) final private(set) var timelineAlone: Unmanaged<TrackRecording>?
    /// The recording told messages since they were last sent: the one alone, or the one the
    /// sinks taken out for the end hold.
    @exclusivity(unchecked) final private(set) var unstamped: Unmanaged<TrackRecording>?
    /// Let go of by its operation once it sent the end: set for a timeline's recording, which its
    /// timeline keeps, and which holds what the operation let go of as it finished (conditions
    /// that may hold the operation). A log of its own is kept until the operation is let go of:
    /// freed on the thread that finished the operation, its free waited for the allocator's lock
    /// of the thread that made it.
    final let letsGoAtEnd: Bool
    /// It was told the end.
    @exclusivity(unchecked) final private(set) var isEnded = false

    /// It sent the end, and its operation lets go of it.
    final var isLetGoOfAtEnd: Bool { letsGoAtEnd && isEnded && !hasMessages }

    final var hasMessages: Bool { unstamped != nil || !messages.isEmpty }

    /// `letsGoAtEnd`: see ``letsGoAtEnd``.
    init(letsGoAtEnd: Bool = false) {
        self.letsGoAtEnd = letsGoAtEnd
    }

    final func add(_ sink: any EventSink) {
        sinks.append(sink)
        timelineAlone = sinks.timelineAlone.map { .passUnretained($0) }
    }

    /// Buffered for the sinks: what the `tell` methods do not tell the timeline's recording
    /// directly. Private, so that nothing written for the sinks goes around that recording.
    private func append(_ message: consuming SinkMessage) {
        messages.append(consume message)
    }

    /// `event`, for every sink.
    final func tell(_ event: OperationEvent) {
        guard let recording = timelineAlone else { return append(.event(event)) }
        if recording._withUnsafeGuaranteedRef({ $0.record(event) }) { unstamped = recording }
    }

    /// `event`, for every sink.
    final func tell(_ event: LogEvent) {
        guard let recording = timelineAlone else { return append(.log(event)) }
        recording._withUnsafeGuaranteedRef { $0.record(event) }
        unstamped = recording
    }

    /// The state now, to `sink`, just added.
    final func tellCurrent(_ state: ConditionalOperation.State, to sink: any EventSink) {
        guard let recording = timelineAlone, sink.timelineSink != nil else {
            return append(.current(state, to: sink))
        }
        if recording._withUnsafeGuaranteedRef({ $0.record(.stateChanged(state)) }) { unstamped = recording }
    }

    /// The end, with `errors`, to `sinks`, taken out of the log (``takeSinks()``). The recording
    /// finishes as the messages are sent, in this trip: the sinks taken out, which hold its
    /// timeline, are let go of only after it.
    final func tellEnd(_ errors: [any Error], to sinks: SinkList) {
        isEnded = true
        guard messages.isEmpty, let recording = sinks.timelineAlone else {
            return append(.end(errors, sinks: sinks))
        }
        recording.record(.didFinish(errors))
        unstamped = .passUnretained(recording)
    }

    /// Gives the messages the timeline's recording was told since the last send their time.
    final func stampTimeline() {
        guard let recording = unstamped else { return }
        unstamped = nil
        recording._withUnsafeGuaranteedRef { $0.stamp() }
    }

    /// The sinks, taken out: for the last message, as the operation finishes and lets go of them
    /// outside the lock (``OperationStateMachine/noteFinishedForSinks()``), and to be sent to
    /// (``putBack(_:)``), moved rather than copied.
    final func takeSinks() -> SinkList {
        var taken = SinkList()
        swap(&taken, &sinks)
        timelineAlone = nil
        return taken
    }

    /// The sinks ``takeSinks()`` returned to send to.
    final func putBack(_ taken: consuming SinkList) {
        sinks = taken
        timelineAlone = sinks.timelineAlone.map { .passUnretained($0) }
    }

    /// The messages, taken out to be sent.
    final func takeMessages() -> [SinkMessage] {
        var taken: [SinkMessage] = []
        swap(&taken, &messages)
        return taken
    }

    /// The buffer `takeMessages()` returned, emptied: kept for the next event's messages.
    final func giveBack(_ buffer: [SinkMessage]) {
        messages = buffer
    }
}
