import Foundation

/// Runs the operations the library must run when no queue is known: operations produced by an
/// operation that no queue started (S10) and condition dependencies on a plain queue (S3).
enum LibraryQueue {
    static let shared: OperationQueue = {
        let queue = OperationQueue()
        queue.name = "ConditionalOperations"
        return queue
    }()
}
