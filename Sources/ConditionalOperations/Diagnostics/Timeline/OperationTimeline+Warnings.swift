import Foundation

extension OperationTimeline {
    /// Something in the run that is likely a mistake, naming the operations concerned.
    public struct Warning: Sendable, Hashable, CustomStringConvertible {
        /// What was noticed.
        public enum Kind: Sendable, Hashable {
            /// An operation has been executing far longer than the others took (at least 10 times
            /// the median of the finished executions, and at least a second) and has not finished:
            /// often a `finish()` that is never called. Not said of a group, a retry, a repeat or a
            /// delay, which execute as long as what they run or wait for.
            case executingWithoutFinishing
            /// An operation holds a category, a limit or a rate-limit permit while it waits for
            /// something else (a slot of its queue, a dependency added late), and others wait for
            /// what it holds: they wait for its wait. Often a queue too narrow for the operations
            /// that need the category, or a category asked for earlier than needed.
            case categoryHeldWhileWaiting
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
        executingWithoutFinishing(in: snapshot) + categoriesHeldWhileWaiting(in: snapshot)
    }

    /// Each running operation that holds a category while its open span is a wait, and has
    /// waiters for that category.
    static func categoriesHeldWhileWaiting(in snapshot: TimelineSnapshot) -> [Warning] {
        let open = snapshot.spans.filter(\.isOpen).map(\.span)
        let waits = Dictionary(
            open.filter { !$0.kind.isNested }.map { ($0.track, $0.kind) }, uniquingKeysWith: { $1 })
        // By name, so that a snapshot of many running operations is read once, not once a holder.
        var waiters: [String: [Int]] = [:]
        for span in open where span.kind == .categories {
            guard case .categories(let names) = span.reason else { continue }
            for name in names { waiters[name, default: []].append(span.track) }
        }
        return snapshot.held.compactMap { holder in
            guard let wait = waits[holder.track], wait == .slot || wait == .dependencies else { return nil }
            let behind = Set(holder.names.flatMap { waiters[$0] ?? [] }).sorted()
            guard !behind.isEmpty else { return nil }
            let name = snapshot.tracks[holder.track].name
            let names = behind.map { snapshot.tracks[$0].name }
            let held = holder.names.map { "'\($0)'" }.joined(separator: ", ")
            return Warning(
                kind: .categoryHeldWhileWaiting, operations: [name] + names,
                description: "\(name) holds \(held) while \(wait.rawValue), and \(names.count) operation(s) "
                    + "wait for it: " + names.joined(separator: ", ")
                    + ". Is its queue too narrow for the operations needing the category, or is the "
                    + "category asked for earlier than needed? (S7)")
        }
    }

    static func executingWithoutFinishing(in snapshot: TimelineSnapshot) -> [Warning] {
        let executions = snapshot.spans.filter { $0.span.kind == .executing }
        let finished = executions.filter { !$0.isOpen }.map { $0.span.duration(until: snapshot.now) }.sorted()
        let median = finished.isEmpty ? 0 : finished[finished.count / 2]
        let tenTimes = median.multipliedReportingOverflow(by: 10)
        let threshold = max(1_000_000_000, tenTimes.overflow ? .max : tenTimes.partialValue)
        return executions.filter { entry in
            entry.isOpen && entry.span.duration(until: snapshot.now) >= threshold
                && !isLongByDesign(snapshot.tracks[entry.span.track].type)
        }.map { open in
            let name = snapshot.tracks[open.span.track].name
            let seconds = Double(open.span.duration(until: snapshot.now)) / 1e9
            let others =
                finished.isEmpty
                ? ""
                : "; the \(finished.count) finished took " + String(format: "%.3f s", Double(median) / 1e9)
                    + " at the median"
            return Warning(
                kind: .executingWithoutFinishing, operations: [name],
                description: "\(name) has been executing for " + String(format: "%.1f s", seconds)
                    + " without finishing" + others
                    + ": if it is not meant to take this long, does its execute() always call finish()?")
        }
    }

    /// Executes as long as what it runs or waits for: a group, a retry, a repeat, a delay.
    static func isLongByDesign(_ type: Foundation.Operation.Type) -> Bool {
        type is GroupOperation.Type || type is DelayOperation.Type || type is any AttemptRunning.Type
    }
}

extension TimelineSpan {
    /// Nanoseconds from its start to its end, or to `now` while it is open.
    func duration(until now: UInt64) -> UInt64 {
        let end = self.end ?? now
        return end >= start ? end - start : 0
    }
}
