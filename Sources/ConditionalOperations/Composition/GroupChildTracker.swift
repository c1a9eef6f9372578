import Foundation

/// The delegate of a ``GroupOperation``'s queue: tells the group of every child added and
/// finished. The queue holds it weakly and the group strongly; it holds the group weakly.
final class GroupChildTracker: ConditionalOperationQueueDelegate {
    private weak let group: GroupOperation?

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
