import Foundation

/// The dependency graph of a ``ConditionalOperationQueue``'s operations (added, not yet finished):
/// enough to count them, cancel or wait for them, and find dependency cycles. The queue's own
/// bookkeeping is its machine's (`QueueStateMachine`).
///
/// The common operation, a ``ConditionalOperation`` added with every dependency finished and that
/// no operation of the queue waits for, takes no part in the graph: no dependency edge leaves it,
/// so no cycle can pass through it. It is kept in ``loose`` at the index it holds itself
/// (``ConditionalOperation/registrySlot``), which costs no hashing; an operation added later that
/// depends on it counts it among the dependencies not in the graph (`elsewhere`).
struct QueueRegistry {
    private struct Entry {
        let operation: Foundation.Operation
        /// Its dependencies among the unfinished operations of this queue.
        var dependencies: [ObjectIdentifier]
        /// The unfinished operations of this queue that depend on it.
        var dependents: Set<ObjectIdentifier> = []
        /// Its dependencies not (yet) added to this queue, when it was added.
        let elsewhere: [ObjectIdentifier]
    }

    private var entries: [ObjectIdentifier: Entry] = [:]
    /// The unfinished operations outside the graph, each at its ``ConditionalOperation/registrySlot``;
    /// `nil` where one was forgotten, a slot the next one added takes (`freeSlots`). Forgetting one
    /// touches no other operation: the thread finishing it holds the queue's lock meanwhile, and
    /// an operation moved into its slot would be one the thread adding operations just wrote.
    private var loose: [ConditionalOperation?] = []
    private var freeSlots: [Int32] = []
    /// For an operation not (yet) added here, or outside the graph: the operations of this queue
    /// that depend on it.
    private var awaitedBy: [ObjectIdentifier: Set<ObjectIdentifier>] = [:]
    /// S27: the operations whose coalescing key others join, until they finished.
    var inFlightKeys = InFlightKeys()

    var count: Int { entries.count + loose.count - freeSlots.count }
    /// Operations the cycle searches visited so far, for tests (``closesCycle(dependencies:awaiting:)``).
    private(set) var cycleSearchVisits = 0

    var operations: [Foundation.Operation] { entries.values.map(\.operation) + loose.compactMap { $0 } }

    /// Registers `operation` with its unfinished `dependencies`; returns whether it was registered
    /// already (a misuse, S13), and the operations of a dependency cycle it closes (empty if none).
    ///
    /// A cycle through `operation` needs an operation of this queue that already depends on it, so
    /// adding operations in dependency order (a chain, a fan-in) costs no search at all; otherwise
    /// the search costs what the smaller side costs (``closesCycle(dependencies:awaiting:)``).
    mutating func add(_ operation: Foundation.Operation, dependencies: [Foundation.Operation]) -> (
        isKnown: Bool, cycle: [Foundation.Operation]
    ) {
        if dependencies.isEmpty, let conditional = operation as? ConditionalOperation,
            awaitedBy.isEmpty || awaitedBy[ObjectIdentifier(operation)] == nil
        {
            // The common operation: no hash, no search. One added twice traps in `enqueue` (S13).
            if let slot = freeSlots.popLast() ?? Int32(exactly: loose.count) {
                conditional.registrySlot = slot
                if Int(slot) < loose.count {
                    loose[Int(slot)] = conditional
                } else {
                    loose.append(conditional)
                }
                return (false, [])
            }
        }
        let id = ObjectIdentifier(operation)
        if dependencies.isEmpty, awaitedBy.isEmpty {
            // A plain operation: one hash, no search.
            let entry = Entry(operation: operation, dependencies: [], elsewhere: [])
            return (entries.updateValue(entry, forKey: id) != nil, [])
        }
        let isKnown = entries[id] != nil
        var known: [ObjectIdentifier] = []
        var elsewhere: [ObjectIdentifier] = []
        for dependency in dependencies.lazy.map(ObjectIdentifier.init) where dependency != id {
            if entries[dependency] != nil {
                known.append(dependency)
                entries[dependency]?.dependents.insert(id)
            } else {
                elsewhere.append(dependency)
                awaitedBy[dependency, default: []].insert(id)
            }
        }
        let earlierDependents = awaitedBy.removeValue(forKey: id) ?? []
        for dependent in earlierDependents { entries[dependent]?.dependencies.append(id) }
        entries[id] = Entry(
            operation: operation, dependencies: known, dependents: earlierDependents, elsewhere: elsewhere)
        if dependencies.contains(where: { $0 === operation }) { return (isKnown, [operation]) }
        guard !earlierDependents.isEmpty, !known.isEmpty,
            closesCycle(dependencies: known, awaiting: earlierDependents)
        else { return (isKnown, []) }
        // Rare: every operation of every cycle through it, each searched in full.
        return (isKnown, cycle(of: operation))
    }

    /// Forgets an operation that finished; returns whether it was known.
    mutating func remove(_ operation: Foundation.Operation) -> Bool {
        let id = ObjectIdentifier(operation)
        if let conditional = operation as? ConditionalOperation, removeLoose(conditional) {
            if !inFlightKeys.isEmpty { inFlightKeys.release(id) }
            // Those that depend on it wait for nothing more here: an operation allocated where it
            // was must not inherit them.
            if !awaitedBy.isEmpty { awaitedBy[id] = nil }
            return true
        }
        guard let entry = entries.removeValue(forKey: id) else { return false }
        if !inFlightKeys.isEmpty { inFlightKeys.release(id) }
        for dependency in entry.dependencies { entries[dependency]?.dependents.remove(id) }
        for dependency in entry.elsewhere {
            awaitedBy[dependency]?.remove(id)
            if awaitedBy[dependency]?.isEmpty == true { awaitedBy[dependency] = nil }
        }
        return true
    }

    /// `finished` finished and are still registered: an operation that finished within the
    /// `start()` a drainer gave it is forgotten with the drainer's next trip, after its waiters
    /// were resumed. Their edges go now, so that no search finds a cycle through them (a
    /// cancelled operation finishes before its dependencies do); they stay counted until they
    /// are forgotten.
    mutating func detach(_ finished: [Foundation.Operation]) {
        for id in finished.lazy.map(ObjectIdentifier.init) {
            guard let entry = entries[id] else { continue }
            for dependency in entry.dependencies { entries[dependency]?.dependents.remove(id) }
            for dependent in entry.dependents { entries[dependent]?.dependencies.removeAll { $0 == id } }
            for dependency in entry.elsewhere {
                awaitedBy[dependency]?.remove(id)
                if awaitedBy[dependency]?.isEmpty == true { awaitedBy[dependency] = nil }
            }
            entries[id]?.dependencies = []
            entries[id]?.dependents = []
        }
    }

    /// The operations of every dependency cycle through `operation`; empty if none.
    func cycle(of operation: Foundation.Operation) -> [Foundation.Operation] {
        let id = ObjectIdentifier(operation)
        let cycle = reachable(from: id, along: \.dependencies).intersection(
            reachable(from: id, along: \.dependents))
        return cycle.compactMap { entries[$0]?.operation }
    }

    /// Takes `operation` out of ``loose`` if it is there: its slot is free for the next one.
    private mutating func removeLoose(_ operation: ConditionalOperation) -> Bool {
        let slot = operation.registrySlot
        guard slot >= 0, Int(slot) < loose.count, loose[Int(slot)] === operation else { return false }
        loose[Int(slot)] = nil
        operation.registrySlot = -1
        if freeSlots.count + 1 == loose.count {
            // None left: the slots start again from the first.
            loose.removeAll(keepingCapacity: true)
            freeSlots.removeAll(keepingCapacity: true)
        } else {
            freeSlots.append(slot)
        }
        return true
    }

    /// Whether an operation that depends on `dependencies` and that `awaiting` depend on closes a
    /// cycle: whether one of `dependencies` leads, through dependencies, to one of `awaiting`, or,
    /// the same question from the other side, one of `awaiting` leads through dependents to one of
    /// `dependencies`. Both searches advance one operation at a time, in turn, and the first one
    /// that ends answers, so that a long unfinished graph on one side (a chain the operation waits
    /// for) costs nothing when the other side is short: at most twice the smaller side's visits.
    private mutating func closesCycle(dependencies: [ObjectIdentifier], awaiting: Set<ObjectIdentifier>)
        -> Bool
    {
        if dependencies.contains(where: awaiting.contains) { return true }
        let targets = Set(dependencies)
        var down = (stack: dependencies, seen: targets)
        var up = (stack: Array(awaiting), seen: awaiting)
        while true {
            // Down: what the dependencies wait for.
            guard let next = down.stack.popLast() else { return false }
            cycleSearchVisits += 1
            for dependency in entries[next]?.dependencies ?? [] where down.seen.insert(dependency).inserted {
                if awaiting.contains(dependency) { return true }
                down.stack.append(dependency)
            }
            // Up: what waits for those awaiting it.
            guard let previous = up.stack.popLast() else { return false }
            cycleSearchVisits += 1
            for dependent in entries[previous]?.dependents ?? [] where up.seen.insert(dependent).inserted {
                if targets.contains(dependent) { return true }
                up.stack.append(dependent)
            }
        }
    }

    /// S33: the operations of the dependency cycle that `joiner` joining `holder` (S27) closes;
    /// empty if none. A join is an edge, as a dependency is (the joiner waits for the holder), so
    /// it closes a cycle where the holder waits, through this queue's operations, for the joiner.
    func cycle(joining joiner: ConditionalOperation, to holder: ConditionalOperation) -> [Foundation
        .Operation]
    {
        let (joinerID, holderID) = (ObjectIdentifier(joiner), ObjectIdentifier(holder))
        // One outside the graph (``loose``) waits for nothing here, or nothing here waits for it.
        guard entries[joinerID] != nil, entries[holderID] != nil else { return [] }
        let awaitedByHolder = reachable(from: holderID, along: \.dependencies)
        guard awaitedByHolder.contains(joinerID) else { return [] }
        let cycle = awaitedByHolder.intersection(reachable(from: joinerID, along: \.dependents))
            .union([holderID, joinerID])
        return cycle.compactMap { entries[$0]?.operation }
    }

    /// Every operation reachable from `start` (itself included if on a cycle) following `edges`.
    private func reachable<Edges: Sequence<ObjectIdentifier>>(
        from start: ObjectIdentifier, along edges: KeyPath<Entry, Edges>
    ) -> Set<ObjectIdentifier> {
        var seen: Set<ObjectIdentifier> = []
        var stack: [ObjectIdentifier] = []
        if let entry = entries[start] { stack.append(contentsOf: entry[keyPath: edges]) }
        while let next = stack.popLast() {
            guard seen.insert(next).inserted, let entry = entries[next] else { continue }
            stack.append(contentsOf: entry[keyPath: edges])
        }
        return seen
    }
}
