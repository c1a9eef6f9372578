import Foundation

/// Hears about the operations of a ``ConditionalOperationQueue``. Both methods have empty defaults.
///
/// The queue holds its delegate weakly. Methods are called outside every lock of the library, on
/// the thread adding or finishing the operation; the next operations start meanwhile, so the
/// calls of several operations may overlap, even on a queue running one at a time.
public protocol ConditionalOperationQueueDelegate: AnyObject, Sendable {
    /// `operation` is about to be added to `queue`.
    func operationQueue(_ queue: ConditionalOperationQueue, willAdd operation: Foundation.Operation)
    /// `operation` finished (`isFinished` is `true`), with `errors` (always empty for an operation
    /// that is not a ``ConditionalOperation``).
    ///
    /// It may come after those awaiting the operation, or the queue, were resumed:
    /// `untilFinished()`, `queue.run`, `waitUntilIdle()` and
    /// ``ConditionalOperationQueue/shutdown(gracePeriod:)`` return once the operations finished, and
    /// an operation that finishes within its `start()` is told here a moment later.
    /// `waitUntilAllOperationsAreFinished()` returns only after this was called for each.
    func operationQueue(
        _ queue: ConditionalOperationQueue, operationDidFinish operation: Foundation.Operation,
        errors: [any Error])
}

extension ConditionalOperationQueueDelegate {
    /// Does nothing: a delegate that does not implement it ignores additions.
    public func operationQueue(_ queue: ConditionalOperationQueue, willAdd operation: Foundation.Operation) {}
    /// Does nothing: a delegate that does not implement it ignores finishes.
    public func operationQueue(
        _ queue: ConditionalOperationQueue, operationDidFinish operation: Foundation.Operation,
        errors: [any Error]
    ) {}
}
