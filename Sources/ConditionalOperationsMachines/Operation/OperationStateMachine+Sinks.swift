import Foundation

/// What only loggers hear of, as the machine knows it: the condition itself, whose name is user
/// code, read by the logger's queue, and when the wait began (the sink reads the clock).
public enum OperationLogEvent<Condition, ConditionResult> {
    case conditionEvaluated(Condition, ConditionResult, since: Uptime)
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

extension OperationStateMachine {
    public typealias LogEvent = OperationLogEvent<Host.Condition, Host.ConditionResult>

    public enum AddEventSinkAction: Sendable {
        /// Told of every change from now on; `isCancelled`: a cancel came before (no `didCancel`
        /// will).
        case added(isCancelled: Bool)
        /// Already finished: the caller tells it the end itself, with these errors.
        case tellFinished([any Error])
    }

    /// Adds an event sink, which is told the current state first.
    @inlinable public mutating func addEventSink(_ sink: Host.Sink) -> AddEventSinkAction {
        switch phase {
        case .finished:
            // Nothing will change any more.
            return .tellFinished(errors)
        case .initialized, .pending, .evaluating, .acquiring, .joining, .ready, .executing, .draining,
            .finishing:
            // Told of every change from now on.
            let current = state
            listeners.addSink(sink, toldOf: current)
            listenerMarks.addedSink(toldOf: current, hearingStart: Host.hearsStart(sink))
            return .added(isCancelled: isCancelled)
        }
    }

    /// Whether some event sink listens.
    @inlinable public var hasEventSinks: Bool { listeners.sinkLog != nil }

    /// What the current event wrote for the sinks; `nil` if nothing.
    @inline(__always)
    @inlinable public var sinkMessages: Unmanaged<Host.SinkLog>? {
        guard let log = listeners.sinkLog, log.hasMessages else { return nil }
        return .passUnretained(log)
    }

    /// Writes `event` for every sink. Callers check ``hasEventSinks`` first, so that an operation
    /// without sinks does not even make the event.
    @inlinable mutating func tellSinks(_ event: LogEvent) {
        listeners.sinkLog?.tell(event)
    }

    /// The public state is `current`: the sinks hear of it if it changed.
    @inlinable mutating func noteState(_ current: OperationState) {
        guard current != sinksTold else { return }
        listenerMarks.told(current)
        listeners.sinkLog?.tell(state: current)
    }

    /// A callback is told when it is queued, which is the order of S1; `didFinish` comes once
    /// finished (``noteFinishedForSinks()``).
    @inlinable mutating func noteCallback(_ effect: Effect) {
        switch effect {
        case .didStart, .didProduce, .didCancel: listeners.sinkLog?.tell(callback: effect)
        case .finish: break
        }
    }

    /// The sinks' last message, as the operation finishes: it tells the state `finished` itself.
    /// Returns the sinks, which the caller lets go of once unlocked: the message sent under the
    /// lock must not hold the last reference to one (a logger's channel).
    @inlinable mutating func noteFinishedForSinks() -> Host.SinkLog.Sinks? {
        guard let log = listeners.sinkLog else { return nil }
        listenerMarks.told(.finished)
        let sinks = log.takeSinks()
        log.tellEnd(errors, to: sinks)
        return sinks
    }
}

extension OperationStateMachine {
    /// The sinks, taken out as the operation is deallocated, finished or not (nothing is sent
    /// to them any more), for the caller to tell a timeline's recording that the operation
    /// ended unfinished, and to let go of.
    @inlinable public mutating func takeSinksAtDeallocation() -> Host.SinkLog.Sinks? {
        listeners.sinkLog?.takeSinks()
    }

    /// The log of the sinks, once it sent the end and is let go of then
    /// (``SinkLog/isLetGoOfAtEnd``), taken out for the storage to let go of after unlocking.
    @inlinable public mutating func takeEndedSinkLog() -> Host.SinkLog? {
        listeners.takeSinkLog()
    }
}
