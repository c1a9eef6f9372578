import Foundation

/// The delegate of a ``GroupOperation``'s queue: tells the group of every child added and
/// finished. The queue holds it weakly and the group strongly; it holds the group weakly.
final class GroupChildTracker: ConditionalOperationQueueDelegate {
    /// Behind the library's lock: a `weak let` would need Swift 6.3, and a `weak var` is not `Sendable`.
    private let reference: Locked<WeakGroup>

    private struct WeakGroup {
        weak var group: GroupOperation?
    }

    private var group: GroupOperation? { reference.withLock { $0.group } }

    init(group: GroupOperation) {
        reference = Locked(WeakGroup(group: group))
    }

    func operationQueue(_ queue: ConditionalOperationQueue, willAdd operation: Foundation.Operation) {
        group?.childWillBeAdded(operation)
    }

    func operationQueue(
        _ queue: ConditionalOperationQueue, operationDidFinish operation: Foundation.Operation,
        errors: [any Error]
    ) {
        group?.childFinished(operation, errors: errors)
    }
}
