import Foundation

/// Waiting for a run's operations without disturbing them.
enum Completion {
    /// Blocks until every operation finished, waiting for the last-added one first.
    ///
    /// `OperationQueue.waitUntilAllOperationsAreFinished()` waits for the operations in order,
    /// so the waiting thread is woken by nearly every operation that finishes and, on a 2-core
    /// machine, takes a core from the operations each time: it slowed the slower side most and
    /// skewed the ratio. The last-added operation is usually the last to finish, so this sleeps
    /// about once and then finds the others finished. Call it from a thread outside the dispatch
    /// pool (see ``Watchdog``).
    static func waitForAll(_ operations: [Foundation.Operation]) {
        for operation in operations.reversed() {
            operation.waitUntilFinished()
        }
    }
}
