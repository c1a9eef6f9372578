import ConditionalOperationsMachines

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

    /// Their operation was let go of before it finished: a timeline's recording records no more
    /// (nothing is sent to the others either).
    func letGoUnfinished() {
        timeline?.recording.letGoUnfinished()
        for sink in others { sink.timelineSink?.recording.letGoUnfinished() }
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
