import Foundation

extension OperationQueue {
    /// Adds `operation` and returns once it finished, throwing its first error (S14).
    ///
    /// The calling task owns the operation: cancelling the task cancels it, and `run` still returns
    /// only after it finished, so its work never outlives the call. It throws the first of
    /// ``ConditionalOperation/errors``, or `CancellationError()` if the operation was cancelled
    /// without an error. It waits without holding a thread, on any `OperationQueue`,
    /// ``ConditionalOperationQueue`` included.
    ///
    /// ```swift
    /// try await queue.run(SaveOperation(document))
    /// ```
    @_disfavoredOverload
    public func run(_ operation: ConditionalOperation) async throws {
        try await runToEnd(operation)
        if let error = operation.errors.first { throw error }
        if operation.isCancelled { throw CancellationError() }
    }

    /// Adds `operation` and returns its value once it finished, or throws as
    /// ``ResultOperation/value`` does (S14).
    ///
    /// The calling task owns the operation: cancelling the task cancels it, and `run` still returns
    /// only after it finished.
    ///
    /// ```swift
    /// let total = try await queue.run(SumOperation(numbers))
    /// ```
    public func run<Output>(_ operation: ResultOperation<Output>) async throws -> Output {
        try await runToEnd(operation)
        return try operation.finishedValue()
    }

    /// Adds `operation`, cancels it if the task is cancelled, and waits until it finished.
    private func runToEnd(_ operation: ConditionalOperation) async throws {
        // S22: an AsyncOperation's work runs with this task's task-local values and priority.
        operation.prepareTaskInCallersContext()
        addOperation(operation)
        await withTaskCancellationHandler {
            await operation.untilFinished()
        } onCancel: {
            operation.cancel()
        }
        operation.endTaskInCallersContext()
    }
}
