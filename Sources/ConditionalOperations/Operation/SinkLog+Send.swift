extension SinkLog {
    /// Tells the event sinks among `observers` what the machine wrote for them, in order. The
    /// operation's storage calls it under the operation's lock, at the end of the event that wrote
    /// the messages, so that every sink hears the events in the machine's order (S1, S16).
    static func send(_ messages: [SinkMessage], to observers: ObserverList) {
        for message in messages {
            switch message {
            case .event(let event):
                for case let sink as any EventSink in observers { sink.send(event) }
            case .log(let event):
                for case let sink as any EventSink in observers { sink.send(event) }
            case .current(let state, let sink):
                sink.send(.stateChanged(state))
            case .end(let errors, let sinks):
                for sink in sinks {
                    sink.send(.stateChanged(.finished))
                    sink.send(.didFinish(errors))
                    sink.end()
                }
            }
        }
    }
}
