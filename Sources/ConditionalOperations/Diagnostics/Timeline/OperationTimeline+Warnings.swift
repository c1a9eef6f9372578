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
            /// Operations wait for a category or a limit that an operation cancelled a second or
            /// more ago still holds: it goes on running after its cancel (a `finishesWhenCancelled`
            /// of `false`, an `execute()` that does not look at `isCancelled`), and they wait for
            /// it. (A rate limit's permit is spent when taken: its holder's end frees none.)
            case waitingBehindCancelled
            /// A group, a retry or a repeat executes, so it holds a slot of its queue (or of the
            /// group it runs in), while nothing it runs executes, and operations beside it have
            /// waited a second or more for a slot: they wait for what the composite waits for (its
            /// operations' dependencies, conditions or categories, a back-off). Often a limit too
            /// low for composites that wait.
            case slotHeldByWaitingComposite
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
        let open = snapshot.spans.filter(\.isOpen).map(\.span)
        let waiters = categoryWaiters(in: open)
        return executingWithoutFinishing(in: snapshot)
            + categoriesHeldWhileWaiting(in: snapshot, open: open, waiters: waiters)
            + waitingBehindCancelled(in: snapshot, waiters: waiters)
            + slotsHeldByWaitingComposites(in: snapshot, open: open)
    }

    /// How long a wait lasts before it is warned about: a second, in the timeline's nanoseconds.
    static let patience: UInt64 = 1_000_000_000

    /// The tracks waiting for each category or limit, by its line, in the order they were
    /// recorded: a snapshot of many running operations is read once, not once a holder. Rate
    /// limits are left out: a permit is spent when taken, and its holder's end frees none.
    static func categoryWaiters(in open: [TimelineSpan]) -> [String: [Int]] {
        var waiters: [String: [Int]] = [:]
        for span in open where span.kind == .categories {
            guard case .categories(let keys, _) = span.reason else { continue }
            for line in keys.compactMap(line(of:)) { waiters[line, default: []].append(span.track) }
        }
        return waiters
    }

    /// The line `key` holds a place in (``CategoryKey``), or `nil` for a rate limit's permit.
    static func line(of key: String) -> String? {
        switch CategoryKey.need(of: key) {
        case .category(let line, _): line
        case .rate: nil
        }
    }

    /// Who waits for what `holder` holds, as a warning names them: the holder, the waiters (none:
    /// `nil`) and the categories waited for.
    private static func waiting(
        for holder: TimelineSnapshot.Holder, among waiters: [String: [Int]], in snapshot: TimelineSnapshot
    ) -> (holder: String, waiters: [String], categories: String)? {
        let lines = holder.keys.compactMap(line(of:))
        let tracks = Set(lines.flatMap { waiters[$0] ?? [] }).subtracting([holder.track]).sorted()
        guard !tracks.isEmpty else { return nil }
        let held = holder.keys.filter { line(of: $0).map { waiters[$0] != nil } ?? false }
        return (
            snapshot.tracks[holder.track].name, tracks.map { snapshot.tracks[$0].name },
            ExclusivityController.unscopedNames(held).map { "'\($0)'" }.joined(separator: ", ")
        )
    }

    /// Each running operation that holds a category while its open span is a wait, and has
    /// waiters for that category.
    static func categoriesHeldWhileWaiting(
        in snapshot: TimelineSnapshot, open: [TimelineSpan], waiters: [String: [Int]]
    ) -> [Warning] {
        let waits = Dictionary(
            open.filter { !$0.kind.isNested }.map { ($0.track, $0.kind) }, uniquingKeysWith: { $1 })
        return snapshot.held.compactMap { holder in
            guard let wait = waits[holder.track], wait == .slot || wait == .dependencies else { return nil }
            guard let (name, names, held) = waiting(for: holder, among: waiters, in: snapshot) else {
                return nil
            }
            return Warning(
                kind: .categoryHeldWhileWaiting, operations: [name] + names,
                description:
                    "\(name) holds \(held) while \(wait.rawValue), and \(names.count) "
                    + "operation(s) wait for it: " + names.joined(separator: ", ")
                    + ". Is its queue too narrow for the operations needing the category, or is the "
                    + "category asked for earlier than needed? (S7)")
        }
    }

    /// Each running operation cancelled a second or more ago that still holds a category others
    /// wait for.
    static func waitingBehindCancelled(in snapshot: TimelineSnapshot, waiters: [String: [Int]]) -> [Warning] {
        snapshot.held.compactMap { holder in
            guard let cancelledAt = holder.cancelledAt else { return nil }
            let since = snapshot.now &- min(cancelledAt, snapshot.now)
            guard since >= patience else { return nil }
            guard let (name, names, held) = waiting(for: holder, among: waiters, in: snapshot) else {
                return nil
            }
            return Warning(
                kind: .waitingBehindCancelled, operations: [name] + names,
                description: "\(names.count) operation(s) wait for \(held), which \(name) "
                    + "still holds, cancelled " + String(format: "%.1f s", Double(since) / 1e9) + " ago: "
                    + names.joined(separator: ", ")
                    + ". Does it end when cancelled (finishesWhenCancelled, isCancelled in execute())? (S5)")
        }
    }

    /// Each executing composite with nothing of its own executing (and nothing unrecorded it
    /// runs), beside operations that have waited a second or more for a slot of the queue that
    /// admitted it.
    static func slotsHeldByWaitingComposites(in snapshot: TimelineSnapshot, open: [TimelineSpan]) -> [Warning]
    {
        let slotWaits = open.filter { $0.kind == .slot && $0.duration(until: snapshot.now) >= patience }
        guard !slotWaits.isEmpty else { return [] }
        let executing = open.filter { $0.kind == .executing }.map(\.track)
        let runningSomething = Set(executing.compactMap { snapshot.tracks[$0].parent })
        return executing.sorted().compactMap { composite in
            let track = snapshot.tracks[composite]
            guard isComposite(track.type), track.unrecordedRunning == 0,
                !runningSomething.contains(composite),
                let queue = track.queue
            else { return nil }
            let beside = slotWaits.filter { snapshot.tracks[$0.track].queue == queue }.map(\.track)
            guard !beside.isEmpty else { return nil }
            let names = Set(beside).sorted().map { snapshot.tracks[$0].name }
            return Warning(
                kind: .slotHeldByWaitingComposite, operations: [track.name] + names,
                description: "\(track.name) holds a slot while nothing it runs executes, and \(names.count) "
                    + "operation(s) beside it have waited a second or more for one: "
                    + names.joined(separator: ", ")
                    + ". A composite counts against the limit of what runs it while it waits for its "
                    + "operations' dependencies, conditions, categories or a back-off: is the limit too "
                    + "low for it? (S32)")
        }
    }

    static func executingWithoutFinishing(in snapshot: TimelineSnapshot) -> [Warning] {
        let executions = snapshot.spans.filter { $0.span.kind == .executing }
        let finished = executions.filter { !$0.isOpen }.map { $0.span.duration(until: snapshot.now) }.sorted()
        let median = finished.isEmpty ? 0 : finished[finished.count / 2]
        let tenTimes = median.multipliedReportingOverflow(by: 10)
        let threshold = max(patience, tenTimes.overflow ? .max : tenTimes.partialValue)
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
        isComposite(type) || type is DelayOperation.Type
    }

    /// Runs operations of its own: a group, a retry, a repeat.
    static func isComposite(_ type: Foundation.Operation.Type) -> Bool {
        type is GroupOperation.Type || type is any AttemptRunning.Type
    }
}

extension TimelineSpan {
    /// Nanoseconds from its start to its end, or to `now` while it is open.
    func duration(until now: UInt64) -> UInt64 {
        let end = self.end ?? now
        return end >= start ? end - start : 0
    }
}
