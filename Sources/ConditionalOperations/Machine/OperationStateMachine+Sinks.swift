/// Event sinks: observers told of every state change and callback as it happens, under the
/// operation's lock, so that their order is the machine's (S1, S16). A sink runs no user code
/// there: an `events` stream resumes its consumer's task, a logger's sink queues the record for
/// the logger's own serial queue.
protocol EventSink: OperationObserver {
    func send(_ event: OperationEvent)
    /// The operation finished: nothing follows.
    func end()
    /// Condition answers and category waits, which only loggers hear of.
    func send(_ event: LogEvent)
}

extension EventSink {
    func send(_ event: LogEvent) {}
}

/// What only loggers hear of, as the machine knows it: the condition itself, whose name is user
/// code, read by the logger's queue.
enum LogEvent {
    case conditionEvaluated(any OperationCondition, OperationConditionResult, seconds: Double)
    case waitingForCategories(Set<String>)
    case acquiredCategories(Set<String>, waited: Double)
}

extension OperationStateMachine {
    /// Adds an event sink, which is sent the current state at once. Already finished: the caller
    /// sends the end itself.
    mutating func addEventSink(_ sink: any EventSink) -> AddObserverAction {
        switch phase {
        case .finished:
            // Nothing will change any more.
            return .tellFinished(errors)
        case .initialized, .pending, .evaluating, .acquiring, .ready, .executing, .draining, .finishing:
            // Told of every change from now on, under this lock.
            observers.append(sink)
            hasEventSinks = true
            observersHearStart = true  // it is sent `didStart`
            sentState = state
            sink.send(.stateChanged(sentState))
            return .added
        }
    }

    /// Sends `event` to every sink.
    func send(_ event: OperationEvent) {
        for case let sink as any EventSink in observers { sink.send(event) }
    }

    /// Sends `event` to every sink (loggers alone act on it). Callers check ``hasEventSinks``
    /// first, so that an operation without sinks does not even make the event.
    func send(_ event: LogEvent) {
        for case let sink as any EventSink in observers { sink.send(event) }
    }

    mutating func sendStateChange() {
        let current = state
        guard current != sentState else { return }
        sentState = current
        send(.stateChanged(current))
    }

    /// A callback is sent when it is queued, which is the order of S1; `didFinish` comes once
    /// finished (``endSinks()``).
    func sendCallback(_ effect: Effect) {
        switch effect {
        case .didStart: send(.didStart)
        case .didProduce(let operation): send(.didProduce(operation))
        case .didCancel(let errors): send(.didCancel(errors))
        case .finish: break
        }
    }

    /// The last event of the sinks, once finished; they end.
    func endSinks() {
        guard hasEventSinks else { return }
        for case let sink as any EventSink in observers {
            sink.send(.didFinish(errors))
            sink.end()
        }
    }
}
