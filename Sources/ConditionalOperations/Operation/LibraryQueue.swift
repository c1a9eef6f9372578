import Foundation

/// Runs the operations the library must run when no queue is known: operations produced by an
/// operation that no queue started (S10), condition dependencies on a plain queue (S3), and the
/// attempts of a retry or repeat operation that runs on no queue or on a serial one (S20).
enum LibraryQueue {
    static let shared: OperationQueue = {
        let queue = OperationQueue()
        queue.name = "ConditionalOperations"
        return queue
    }()

    /// Where the attempts of an operation running on `queue` run (``RetryOperation``,
    /// ``RepeatOperation``): on that queue, so that its shutdown reaches them (S21), unless it runs
    /// one operation at a time (an attempt would wait for the operation waiting for it) or there is
    /// none.
    static func forAttempts(on queue: OperationQueue?) -> OperationQueue {
        guard let queue, queue.maxConcurrentOperationCount != 1 else { return shared }
        return queue
    }
}
