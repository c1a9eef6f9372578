extension OperationTimeline {
    /// Something in the run that is likely a mistake, naming the operations concerned.
    public struct Warning: Sendable, Hashable, CustomStringConvertible {
        /// What was noticed.
        public enum Kind: Sendable, Hashable {
            /// An operation has been executing far longer than the others took (at least 10 times
            /// the median of the finished executions, and at least a second) and has not finished:
            /// often a `finish()` that is never called.
            case executingWithoutFinishing
        }

        /// What was noticed.
        public let kind: Kind
        /// The operations concerned, as diagnoses name them.
        public let operations: [String]
        /// The warning in words.
        public let description: String
    }

    /// What the timeline recorded that is likely a mistake, as of now.
    public var warnings: [Warning] {
        Self.warnings(in: snapshot())
    }

    static func warnings(in snapshot: TimelineSnapshot) -> [Warning] {
        let executions = snapshot.spans.filter { $0.span.kind == .executing }
        let finished = executions.filter { !$0.isOpen }.map { $0.span.duration(until: snapshot.now) }.sorted()
        let median = finished.isEmpty ? 0 : finished[finished.count / 2]
        let threshold = max(1_000_000_000, median.multipliedReportingOverflow(by: 10).partialValue)
        return executions.filter { $0.isOpen && $0.span.duration(until: snapshot.now) >= threshold }.map {
            open in
            let name = snapshot.tracks[open.span.track].name
            let seconds = Double(open.span.duration(until: snapshot.now)) / 1e9
            let others =
                finished.isEmpty
                ? ""
                : String(
                    format: "; the %d finished took %.3f s at the median", finished.count,
                    Double(median) / 1e9)
            return Warning(
                kind: .executingWithoutFinishing, operations: [name],
                description: "\(name) has been executing for " + String(format: "%.1f s", seconds)
                    + " without finishing" + others
                    + ": does its execute() always call finish()?")
        }
    }
}

extension TimelineSpan {
    /// Nanoseconds from its start to its end, or to `now` while it is open.
    func duration(until now: UInt64) -> UInt64 {
        let end = self.end ?? now
        return end >= start ? end - start : 0
    }
}
