extension ConditionalOperation {
    /// Suspends until the operation finished and every `operationDidFinish` observer returned.
    ///
    /// It holds no thread while waiting. Cancelling the waiting task does not stop the wait: cancel
    /// the operation instead.
    public func waitUntilFinished() async {
        await withCheckedContinuation { continuation in
            whenFinished { continuation.resume() }
        }
    }
}
