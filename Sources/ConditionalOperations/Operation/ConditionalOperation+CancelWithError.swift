import Foundation

/// Cancelling with an error (S4): the error is recorded in the cancel's own trip through the lock.
extension ConditionalOperation {
    /// Cancels the operation with `error`: calls `cancel()`, whose base records `error` in
    /// ``errors`` as the cancel takes effect.
    ///
    /// Either the cancel takes effect, and the operation is cancelled with `error`, or a finish
    /// came first, and `error` is dropped: never one without the other. Every `cancel(with:)`
    /// before finishing adds its error. An override of `cancel()` that calls `super` later or on
    /// another thread still cancels with `error`; if `super` then runs on another thread while
    /// this call waits, and that cancel already finished the operation, `error` comes too late.
    public func cancel(with error: any Error) {
        guard let untaken = CancelErrorHandoff.offer(error, to: self, while: cancel) else { return }
        machine.withLock { $0.offerCancelError(untaken) }
    }

    /// The same as ``cancel(with:)``, the one spelling of a cancel with an error.
    @available(*, deprecated, renamed: "cancel(with:)")
    public func cancelWithError(_ error: any Error) {
        cancel(with: error)
    }
}
