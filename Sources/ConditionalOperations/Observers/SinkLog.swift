import ConditionalOperationsMachines
import Foundation

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
class SinkLog: OperationSinkLog {
    typealias Condition = any OperationCondition
    typealias ConditionResult = OperationConditionResult

    @exclusivity(unchecked) final private(set) var sinks = SinkList()
    @exclusivity(unchecked) final private(set) var messages: [SinkMessage] = []
    /// The timeline's recording, while it is the one sink: told each message as it is written,
    /// without a time, which it is given as the messages are sent (``send(reading:)``). Most recorded
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
    final func tellCurrent(_ state: OperationState, to sink: any EventSink) {
        let state = ConditionalOperation.State(state)
        guard let recording = timelineAlone, sink.timelineSink != nil else {
            return append(.current(state, to: sink))
        }
        if recording._withUnsafeGuaranteedRef({ $0.record(.stateChanged(state)) }) { unstamped = recording }
    }

    /// The public state changed to `state`.
    final func tell(state: OperationState) {
        tell(.stateChanged(ConditionalOperation.State(state)))
    }

    /// A callback was queued.
    final func tell(callback: OperationEffect) {
        switch callback {
        case .didStart: tell(.didStart)
        case .didProduce(let operation): tell(.didProduce(operation))
        case .didCancel(let errors): tell(.didCancel(errors))
        case .finish: break  // the end is told by `tellEnd`
        }
    }

    /// The end, with `errors`, to `sinks`, taken out of the log (``takeSinks()``). The recording
    /// finishes as the messages are sent, in this trip: the sinks taken out (a logger's channel)
    /// are let go of only after it.
    final func tellEnd(_ errors: [any Error], to sinks: SinkList) {
        isEnded = true
        guard messages.isEmpty, let recording = sinks.timelineAlone else {
            return append(.end(errors, sinks: sinks))
        }
        recording.record(.didFinish(errors))
        unstamped = .passUnretained(recording)
    }

    /// Gives the messages the timeline's recording was told since the last send their time.
    /// `reading`: the ``MonotonicClock``, if this trip read it.
    final func stampTimeline(reading: UInt64? = nil) {
        guard let recording = unstamped else { return }
        unstamped = nil
        recording._withUnsafeGuaranteedRef { $0.stamp(reading: reading) }
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
