extension ResultOperation {
    /// The operation's value, once it finished (S14).
    ///
    /// Waits without holding a thread until the operation finished and every `operationDidFinish`
    /// observer returned, then returns the value of ``finish(returning:)`` or throws the first of
    /// ``ConditionalOperation/errors`` (`CancellationError()` if it was cancelled without an
    /// error, ``OperationError/finishedWithoutValue(name:)`` if it finished without either).
    ///
    /// ```swift
    /// queue.addOperation(fetch)
    /// let users = try await fetch.value
    /// ```
    ///
    /// Cancelling the awaiting task stops the wait at once with `CancellationError()`; the
    /// operation itself is not cancelled, since others may be waiting for it. To run an operation
    /// that the task owns, use `queue.run(_:)`.
    public var value: Output {
        get async throws {
            let wait = FinishWait()
            whenFinished { wait.finish() }
            try await withTaskCancellationHandler {
                try await wait.wait()
            } onCancel: {
                wait.cancel()
            }
            return try finishedValue()
        }
    }

    /// The value or the error of the finished operation, as ``value`` returns it.
    func finishedValue() throws -> Output {
        switch result {
        case .success(let output)?: return output
        case .failure(let error)?: throw error
        case nil: throw OperationError.finishedWithoutValue(name: diagnosticName)
        }
    }
}
