extension ConditionalOperation {
    /// Suspends until the operation finished and every `operationDidFinish` observer returned
    /// (S14): the wait of asynchronous code, top-level code (a `main.swift`) included.
    ///
    /// ```swift
    /// queue.addOperation(download)
    /// await download.untilFinished()
    /// print(download.errors)
    /// ```
    ///
    /// It holds no thread while waiting. Cancelling the waiting task does not stop the wait: cancel
    /// the operation instead (``ResultOperation/value`` stops waiting when its task is cancelled).
    public func untilFinished() async {
        await withCheckedContinuation { continuation in
            whenFinished { continuation.resume() }
        }
    }

    /// The same as ``untilFinished()``, the one `async` wait, which compiles in top-level code too
    /// (there Swift picks Foundation's blocking `waitUntilFinished()` over this one, and the
    /// library stops that with a message naming ``untilFinished()``).
    @available(*, deprecated, renamed: "untilFinished()")
    public func waitUntilFinished() async {
        await untilFinished()
    }
}
