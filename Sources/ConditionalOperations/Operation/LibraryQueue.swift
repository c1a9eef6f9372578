import Foundation

/// Runs the operations the library must run when no queue is known: operations produced by an
/// operation that no queue started (S10), condition dependencies on a plain queue (S3), and the
/// attempts of every retry and repeat operation (S32).
enum LibraryQueue {
    static let shared: OperationQueue = {
        let queue = OperationQueue()
        queue.name = "ConditionalOperations"
        return queue
    }()

    /// Where the attempts of a ``RetryOperation`` and the iterations of a ``RepeatOperation`` run,
    /// whatever runs the composite: a queue without a limit, so that an attempt never waits for a
    /// slot its composite holds (in a bounded queue or group, n composites would hold every slot
    /// and their attempts wait forever), and of nobody else's, so that no enclosing group takes it
    /// for a child and no delegate reports it (S32). The composite is the one operation that
    /// everything outside it sees.
    static let attempts: ConditionalOperationQueue = {
        let queue = ConditionalOperationQueue()
        queue.name = "ConditionalOperations.attempts"
        return queue
    }()
}
