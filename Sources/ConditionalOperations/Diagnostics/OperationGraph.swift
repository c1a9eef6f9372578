import Foundation

/// A picture of operations and their dependencies, as Graphviz DOT or as Mermaid, for a person
/// looking at a graph that does not move.
///
/// Each operation is a node labelled with its name, its state (and whether it is cancelled or
/// failed), its conditions until every one answered (S2 lets go of them then), its exclusivity
/// categories and, while unfinished, the one-line reason of its ``OperationDiagnosis``. Each
/// dependency is an edge from the dependency to its dependent: the arrow reads "must finish
/// before". A ``GroupOperation``'s children are shown too, each with a dashed edge to its group:
/// the group finishes after them.
///
/// ```swift
/// let graph = OperationGraph(queue: queue)
/// try graph.dot.write(toFile: "/tmp/queue.dot", atomically: true, encoding: .utf8)
/// // dot -Tsvg /tmp/queue.dot -o queue.svg
/// ```
///
/// The graph is a snapshot: every operation is read once, when the graph is made, and the text
/// is made from that reading only, so ``dot`` and ``mermaid`` always show the same graph.
public struct OperationGraph: Sendable {
    /// The nodes, dependencies before their dependents where the graph allows it.
    let nodes: [Node]
    /// Operations reached but not shown, past the limit.
    let omitted: Int

    /// One operation, as it was when the graph was made.
    struct Node: Sendable, Equatable {
        let name: String
        let state: ConditionalOperation.State
        let isCancelled: Bool
        let failed: Bool
        /// The conditions' names, until every one answered (S2 lets go of them then).
        let conditions: [String]
        let categories: [String]
        /// Why it waits, or what it does; `nil` once it finished.
        let reason: String?
        /// The positions in ``OperationGraph/nodes`` of the dependencies shown.
        let dependencies: [Int]
        /// The positions in ``OperationGraph/nodes`` of the children shown, for a group.
        var children: [Int] = []
    }

    /// The graph of `operations` and of every dependency (and every group's child) reachable from
    /// them, so that a chain that waits is shown whole.
    ///
    /// ```swift
    /// let graph = OperationGraph([download, parse, save])
    /// print(graph.mermaid)
    /// ```
    ///
    /// - Parameters:
    ///   - operations: The operations to show; any `Foundation.Operation`, not only
    ///     ``ConditionalOperation``s. Repeated operations are shown once.
    ///   - limit: How many operations are shown at most: those given first, in their order, then
    ///     their dependencies, nearest first. The text says how many more there were.
    public init<Operations: Sequence>(_ operations: Operations, limit: Int = 500)
    where Operations.Element: Foundation.Operation {
        self.init(reading: operations.map { $0 }, queue: nil, limit: limit)
    }

    /// The graph of every unfinished operation of `queue`, those it holds back until they are
    /// ready included, and of the dependencies reachable from them.
    ///
    /// ```swift
    /// queue.isSuspended = true
    /// queue.addOperations([fetch, store], waitUntilFinished: false)
    /// print(OperationGraph(queue: queue).dot)
    /// ```
    ///
    /// - Parameters:
    ///   - queue: The queue whose operations to show. A plain operation of it that is ready is
    ///     said to wait for this queue (suspended, at its limit or starting it).
    ///   - limit: How many operations are shown at most, as in ``init(_:limit:)``.
    public init(queue: ConditionalOperationQueue, limit: Int = 500) {
        // The queue keeps its operations in no particular order: by name, so that the same queue
        // gives the same text.
        let operations = queue.unfinishedOperations.map { ($0.diagnosticName, $0) }.sorted { $0.0 < $1.0 }
        self.init(reading: operations.map(\.1), queue: queue, limit: limit)
    }

    private init(reading operations: [Foundation.Operation], queue: OperationQueue?, limit: Int) {
        let (reached, omitted) = Self.reach(from: operations, limit: Swift.max(0, limit))
        // The queue's status once: it lists the queue's operations.
        let known = queue.map(OperationDiagnosis.KnownQueueStatus.init)
        let cycles = DependencyCycles()  // one search for them all
        let readings = reached.map { Reading(of: $0, known: known, cycles: cycles) }
        let order = Self.dependenciesFirst(readings)
        let position = Dictionary(uniqueKeysWithValues: order.enumerated().map { (readings[$1].id, $0) })
        nodes = order.map { index in
            var node = readings[index].node(
                dependencies: readings[index].dependencies.compactMap { position[$0] })
            node.children = readings[index].children.compactMap { position[$0] }
            return node
        }
        self.omitted = omitted
    }

    /// The operations to show, those given first, then breadth first through the dependencies
    /// and groups' children, each once; and how many more were reached past `limit`.
    private static func reach(from operations: [Foundation.Operation], limit: Int)
        -> (reached: [Foundation.Operation], omitted: Int)
    {
        var reached: [Foundation.Operation] = []
        var seen: Set<ObjectIdentifier> = []
        var omitted: Set<ObjectIdentifier> = []
        func visit(_ operation: Foundation.Operation) {
            let id = ObjectIdentifier(operation)
            guard !seen.contains(id) else { return }
            if reached.count < limit {
                seen.insert(id)
                reached.append(operation)
            } else {
                omitted.insert(id)
            }
        }
        for operation in operations { visit(operation) }
        var next = 0
        while next < reached.count {
            for dependency in reached[next].dependencies { visit(dependency) }
            if let group = reached[next] as? GroupOperation {
                for child in group.children { visit(child) }
            }
            next += 1
        }
        return (reached, omitted.count)
    }

    /// The positions of `readings` in the order the nodes get their ids: each operation in the
    /// order reached, preceded by its dependencies not placed yet, so that a chain reads from its
    /// start. In a cycle (S9), the dependency that closes it is not waited for.
    private static func dependenciesFirst(_ readings: [Reading]) -> [Int] {
        let index = Dictionary(uniqueKeysWithValues: readings.enumerated().map { ($1.id, $0) })
        let dependencies = readings.map { $0.dependencies.compactMap { index[$0] } }
        var order: [Int] = []
        order.reserveCapacity(readings.count)
        var entered = [Bool](repeating: false, count: readings.count)
        // A stack of its own rather than recursion: a chain of dependencies may be long.
        var path: [(node: Int, nextDependency: Int)] = []
        for root in readings.indices where !entered[root] {
            entered[root] = true
            path.append((root, 0))
            while let (node, next) = path.last {
                if next < dependencies[node].count {
                    path[path.count - 1].nextDependency += 1
                    let dependency = dependencies[node][next]
                    if !entered[dependency] {
                        entered[dependency] = true
                        path.append((dependency, 0))
                    }
                } else {
                    path.removeLast()
                    order.append(node)
                }
            }
        }
        return order
    }
}

/// What the graph reads of one operation, once: its diagnosis, its conditions and categories, its
/// dependencies. The library's accessors lock on their own; nothing here holds a lock.
private struct Reading {
    let id: ObjectIdentifier
    let diagnosis: OperationDiagnosis
    let conditions: [String]
    let categories: [String]
    let dependencies: [ObjectIdentifier]
    /// A group's children.
    let children: [ObjectIdentifier]

    init(
        of operation: Foundation.Operation, known: OperationDiagnosis.KnownQueueStatus?,
        cycles: DependencyCycles
    ) {
        id = ObjectIdentifier(operation)
        diagnosis = OperationDiagnosis(of: operation, known: known, cycles: cycles)
        if let operation = operation as? ConditionalOperation {
            let summary = operation.conditionSummary
            conditions = summary.conditions
            categories = summary.categories.sorted()
        } else {
            conditions = []
            categories = []
        }
        dependencies = operation.dependencies.map(ObjectIdentifier.init)
        children = (operation as? GroupOperation)?.children.map(ObjectIdentifier.init) ?? []
    }

    func node(dependencies: [Int]) -> OperationGraph.Node {
        let failed: Bool
        let reason: String?
        switch diagnosis.reason {
        case .finished(let errors), .cancelled(let errors):
            (failed, reason) = (!errors.isEmpty, nil)
        case .cycleBroken:
            (failed, reason) = (true, diagnosis.reason.description)
        default:
            (failed, reason) = (false, diagnosis.reason.description)
        }
        return OperationGraph.Node(
            name: diagnosis.name, state: diagnosis.state, isCancelled: diagnosis.isCancelled,
            failed: failed, conditions: conditions, categories: categories, reason: reason,
            dependencies: dependencies.sorted())
    }
}
