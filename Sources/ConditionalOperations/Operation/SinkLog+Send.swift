extension SinkLog {
    /// Tells the event sinks what the machine wrote for them, in order, then forgets the messages.
    /// The operation's storage calls it under the operation's lock, at the end of the event that
    /// wrote them, so that every sink hears the events in the machine's order (S1, S16).
    func send() {
        // Each message is moved out, not copied: reversed (most events write one), then taken
        // from the end and consumed. The buffer comes back empty, its capacity kept for the next
        // event's.
        var pending = takeMessages()
        if pending.count > 1 { pending.reverse() }
        var ended = false
        while let message = pending.popLast() {
            switch consume message {
            case .event(let event):
                for sink in sinks { sink.send(event) }
            case .log(let event):
                for sink in sinks { sink.send(event) }
            case .current(let state, let sink):
                sink.send(.stateChanged(state))
            case .end(let errors, let sinks):
                ended = true
                for sink in sinks {
                    sink.send(.stateChanged(.finished))
                    sink.send(.didFinish(errors))
                    sink.end()
                }
            }
        }
        // Nothing follows the end: the buffer goes (empty, it holds nothing of the user's).
        if !ended { giveBack(pending) }
    }
}
