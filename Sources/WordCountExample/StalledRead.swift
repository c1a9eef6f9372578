import ConditionalOperations
import Foundation

/// An operation that never finishes by itself, standing in for a read from a network mount that
/// stopped answering: only its `TimeoutObserver` ends it.
enum StalledRead {
    /// The operation, cancelled with `OperationError.timedOut` `timeout` after it started.
    static func operation(timeout: Duration) -> AsyncOperation<Void> {
        let operation = AsyncOperation<Void>(name: "read a stalled network mount (demonstration)") {
            // An hour stands for "never". Cancelling the operation cancels the task running this,
            // and `Task.sleep` then throws `CancellationError` at once; no thread waited meanwhile.
            try await Task.sleep(for: .seconds(3600))
        }
        // Counts from didStart. The operation then finishes with the timeout as its error: the
        // `CancellationError` thrown because of the cancel adds none of its own.
        operation.addObserver(TimeoutObserver(timeout: timeout))
        return operation
    }
}
