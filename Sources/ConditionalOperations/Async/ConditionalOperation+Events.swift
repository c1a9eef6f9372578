extension ConditionalOperation {
    /// The operation's state changes and observer callbacks as they happen (S16).
    ///
    /// Each access makes a new stream. It yields the current state first, then every state change
    /// and callback in the order of the behaviour rules (S1), and ends after
    /// ``OperationEvent/didFinish(_:)``; asked for once the operation finished, it yields
    /// `stateChanged(.finished)` and `didFinish` and ends.
    ///
    /// ```swift
    /// for await event in operation.events {
    ///     if case .stateChanged(let state) = event { print("now", state) }
    /// }
    /// ```
    ///
    /// A consumer that stops iterating costs the operation nothing: it never waits for one.
    public var events: AsyncStream<OperationEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: OperationEvent.self)
        if case .tellFinished(let errors) = addEventSink(EventStream(continuation)) {
            continuation.yield(.stateChanged(.finished))
            continuation.yield(.didFinish(errors))
            continuation.finish()
        }
        return stream
    }
}

/// An ``ConditionalOperation/events`` stream among the operation's event sinks. The state machine
/// sends it events as they happen, under the operation's lock (yielding runs no user code: it
/// only resumes the consumer's task), so its order is the machine's.
struct EventStream: EventSink {
    let continuation: AsyncStream<OperationEvent>.Continuation
    /// `didStart` is one of the events it yields (S16).
    var hearsStart: Bool { true }

    init(_ continuation: AsyncStream<OperationEvent>.Continuation) {
        self.continuation = continuation
    }

    func send(_ event: OperationEvent) {
        continuation.yield(event)
    }

    func end() {
        continuation.finish()
    }
}
