import Foundation

/// The delegate of a ``GroupOperation``'s queue: tells the group of every child added and
/// finished. The queue holds it weakly and the group strongly; it holds the group weakly.
final class GroupChildTracker: ConditionalOperationQueueDelegate {
    /// Written once, in `init`, before the tracker is shared, and only read afterwards: a weak
    /// reference is read safely from any thread (the runtime loads it atomically), so it needs no
    /// lock. A `weak let`, which says so to the compiler, needs Swift 6.3.
    nonisolated(unsafe) private weak var group: GroupOperation?

    init(group: GroupOperation) {
        self.group = group
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
