import Foundation

/// Finds the dependency cycles operations wait in, for their diagnoses: a plain `OperationQueue`
/// never breaks one (a `ConditionalOperationQueue` breaks cycles of ``ConditionalOperation``s it
/// sees when they are added, S9), and each operation of it would say "waiting for 1 dependency"
/// forever.
///
/// One finder serves every diagnosis of a report or a graph: it reads each operation's
/// dependencies once and finds the strongly connected components of the unfinished ones (Tarjan's
/// algorithm, without recursion: a chain may be long) as it is asked, so that a whole report costs
/// one pass over what its operations wait for. An edge is an unfinished dependency of an
/// operation that is not cancelled (a cancelled operation waits for none). Used by one thread.
final class DependencyCycles {
    private var indices: [ObjectIdentifier: Int] = [:]
    private var operations: [Foundation.Operation] = []
    /// The unfinished dependencies of each operation, as read once.
    private var successors: [[Foundation.Operation]] = []
    /// The component of each operation, once its search ended; the size of each component.
    private var components: [Int] = []
    private var componentSizes: [Int] = []

    /// The cycle `operation` waits in, as the operations met when following its dependencies
    /// back to it: `operation`, the dependency of the cycle it waits for, that one's, and so on.
    /// `nil` when it is in none.
    func cycle(through operation: Foundation.Operation) -> [Foundation.Operation]? {
        let start = index(of: operation)
        let component = components[start]
        guard componentSizes[component] > 1 else { return nil }
        // The shortest way back to it, within its component.
        var cameFrom: [Int: Int] = [:]
        var frontier = [start]
        while !frontier.isEmpty {
            var next: [Int] = []
            for node in frontier {
                for successor in successors[node].map(index(of:)) where components[successor] == component {
                    if successor == start { return path(to: node, from: start, cameFrom) }
                    guard cameFrom[successor] == nil else { continue }
                    cameFrom[successor] = node
                    next.append(successor)
                }
            }
            frontier = next
        }
        return nil
    }

    private func path(to last: Int, from start: Int, _ cameFrom: [Int: Int]) -> [Foundation.Operation] {
        var path = [last]
        while let previous = cameFrom[path[path.count - 1]], previous != start { path.append(previous) }
        return ([start] + path.reversed()).map { operations[$0] }
    }

    /// The index of `operation`, searched from if it was never met.
    private func index(of operation: Foundation.Operation) -> Int {
        if let index = indices[ObjectIdentifier(operation)] { return index }
        search(from: operation)
        return indices[ObjectIdentifier(operation)] ?? 0
    }

    private func discover(_ operation: Foundation.Operation) -> Int {
        let index = operations.count
        indices[ObjectIdentifier(operation)] = index
        operations.append(operation)
        // Read unlocked, once: `dependencies` and `isFinished` may be overridden.
        successors.append(operation.isCancelled ? [] : operation.dependencies.filter { !$0.isFinished })
        components.append(-1)
        return index
    }

    /// Tarjan's strongly connected components of everything reachable from `root` not met before.
    private func search(from root: Foundation.Operation) {
        var order: [Int: Int] = [:]  // discovery order, of the operations this search met
        var lowest: [Int: Int] = [:]
        var stack: [Int] = []
        var onStack: Set<Int> = []
        // The depth-first path: each operation with the position of its next dependency to follow.
        var path: [(node: Int, next: Int)] = []

        func enter(_ node: Int) {
            order[node] = order.count
            lowest[node] = order[node]
            stack.append(node)
            onStack.insert(node)
            path.append((node, 0))
        }
        enter(discover(root))
        while let (node, next) = path.last {
            if next < successors[node].count {
                path[path.count - 1].next += 1
                let dependency = successors[node][next]
                if let known = indices[ObjectIdentifier(dependency)] {
                    // Met before: in this search's stack, it closes a cycle; otherwise it is done.
                    if onStack.contains(known), let seen = order[known] {
                        lowest[node] = min(lowest[node] ?? seen, seen)
                    }
                } else {
                    enter(discover(dependency))
                }
                continue
            }
            path.removeLast()
            if let parent = path.last?.node, let low = lowest[node] {
                lowest[parent] = min(lowest[parent] ?? low, low)
            }
            guard lowest[node] == order[node] else { continue }
            // `node` is the root of a component: everything above it on the stack belongs to it.
            let component = componentSizes.count
            var size = 0
            while let member = stack.popLast() {
                onStack.remove(member)
                components[member] = component
                size += 1
                if member == node { break }
            }
            componentSizes.append(size)
        }
    }
}
