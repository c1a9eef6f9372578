import Foundation

extension OperationTimeline {
    /// The timeline in the Trace Event Format, which Perfetto (ui.perfetto.dev) and
    /// `chrome://tracing` open as it is: one track (`tid`) per operation kept (an operation whose
    /// spans all were dropped may be gone), named after it (and the composite it ran in:
    /// `… (in GroupOperation 'sync')`), in the order they were added; each
    /// span a complete event (`"ph": "X"`, times in microseconds since the timeline was made) whose
    /// `name` says what the operation did, its `cat` the kind of wait, its `args` the reason (the
    /// condition and its answer, the categories); an operation's end an instant event carrying how
    /// it ended. Spans still open are closed at the time of the call, `"open": true` in their `args`.
    public func traceEventJSON() -> Data {
        let snapshot = snapshot()
        var events: [[String: Any]] = [
            ["name": "process_name", "ph": "M", "pid": 1, "args": ["name": "operations"]]
        ]
        for index in snapshot.tracks.indices {
            let track = snapshot.tracks[index]
            var name = track.name
            if let parent = track.parent, snapshot.tracks.contains(parent) {
                name += " (in \(snapshot.tracks[parent].name))"
            }
            events.append([
                "name": "thread_name", "ph": "M", "pid": 1, "tid": index + 1, "args": ["name": name],
            ])
            events.append([
                "name": "thread_sort_index", "ph": "M", "pid": 1, "tid": index + 1,
                "args": ["sort_index": index],
            ])
            if let (at, errors) = track.finished {
                events.append([
                    "name": Self.ending(of: track, errors: errors), "cat": "finished",
                    "ph": "i",
                    "s": "t", "pid": 1, "tid": index + 1, "ts": snapshot.microseconds(at),
                    "args": ["errors": errors.map { String(describing: $0) }],
                ])
            }
        }
        for entry in snapshot.spans {
            let span = entry.span
            let start = snapshot.microseconds(span.start)
            var args = Self.arguments(for: span.reason)
            if entry.isOpen { args["open"] = true }
            events.append([
                "name": Self.title(of: span), "cat": span.kind.rawValue, "ph": "X", "pid": 1,
                "tid": span.track + 1,
                "ts": start, "dur": max(0, snapshot.microseconds(span.end ?? snapshot.now) - start),
                "args": args,
            ])
        }
        let document: [String: Any] = [
            "traceEvents": events, "displayTimeUnit": "ms",
            "otherData": [
                "droppedSpans": snapshot.dropped, "operations": snapshot.tracks.keptCount,
                "operationsRecorded": snapshot.tracks.count,
            ],
        ]
        // Only strings, numbers, booleans, arrays and dictionaries: it cannot fail.
        return (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])) ?? Data()
    }

    /// A span's title: its kind, or for a condition its name and answer.
    static func title(of span: TimelineSpan) -> String {
        switch span.reason {
        case .condition(let condition, let result): "\(condition.name): \(Self.answer(result))"
        case .categories(let keys, let ahead):
            "waiting for \(ExclusivityController.unscopedNames(keys).joined(separator: ", ")) (\(ahead) ahead)"
        case .joined(let type, let name):
            "joined \(Foundation.Operation.diagnosticName(type: type, name: name))"
        case .none: span.kind.rawValue
        }
    }

    static func arguments(for reason: TimelineSpan.Reason) -> [String: Any] {
        switch reason {
        case .none: [:]
        case .condition(let condition, let result):
            ["condition": condition.name, "answer": Self.answer(result)]
        case .categories(let keys, let ahead):
            ["categories": ExclusivityController.unscopedNames(keys), "ahead": ahead]
        case .joined(let type, let name):
            ["joined": Foundation.Operation.diagnosticName(type: type, name: name)]
        }
    }

    static func answer(_ result: OperationConditionResult) -> String {
        switch result {
        case .satisfied: "satisfied"
        case .failed(let error): "failed: \(error)"
        case .skipped: "skipped"
        }
    }

    /// How an operation ended, in words.
    static func ending(of track: TimelineTrack, errors: [any Error]) -> String {
        if track.wasCancelled {
            return errors.isEmpty ? "cancelled" : "cancelled with \(errors.count) error(s)"
        }
        if !errors.isEmpty { return "failed with \(errors.count) error(s)" }
        return track.executed ? "finished" : "finished without executing"
    }
}
