import Foundation

/// Runs operations produced by an operation that no queue started (S10: never dropped).
enum ProducedOperationQueue {
    static let shared: OperationQueue = {
        let queue = OperationQueue()
        queue.name = "ConditionalOperations.produced"
        return queue
    }()
}
