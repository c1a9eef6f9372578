import Foundation

extension OperationQueue {
    /// Returns once every operation added to the queue before the call finished (S21), holding no
    /// thread: the asynchronous `waitUntilAllOperationsAreFinished()`.
    ///
    /// ```swift
    /// queue.addOperations(imports, waitUntilFinished: false)
    /// await queue.waitUntilIdle()
    /// ```
    ///
    /// On a ``ConditionalOperationQueue`` the operations it holds back (waiting for dependencies,
    /// conditions or a category) count too. Operations added after the call are not waited for.
    /// On a suspended queue it waits until the queue is resumed and they finished. Called from an
    /// operation of this queue (an ``AsyncOperation``'s `run()`, and the tasks it makes), it does
    /// not wait for that operation, which would wait for itself.
    public func waitUntilIdle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            whenIdle(excluding: RunningOperation.current) { continuation.resume() }
        }
    }

    /// Calls `body` once every unfinished operation of the queue but `excluded` finished: at once
    /// if none is left, else on the thread that finished the last one.
    func whenIdle(excluding excluded: ConditionalOperation?, _ body: @escaping @Sendable () -> Void) {
        let pending =
            (self as? ConditionalOperationQueue)?.unfinishedOperations
            ?? operations.filter { !$0.isFinished }
        let awaited = pending.filter { $0 !== excluded }
        guard !awaited.isEmpty else { return body() }
        let remaining = Locked(awaited.count)
        let countDown: @Sendable () -> Void = {
            let isLast = remaining.withLock { count in
                count -= 1
                return count == 0
            }
            if isLast { body() }
        }
        for operation in awaited {
            if let conditional = operation as? ConditionalOperation {
                conditional.whenFinished(countDown)
            } else {
                FinishWatcher(watching: operation, onFinish: countDown)
            }
        }
    }
}

/// The operation whose work the current task runs (an ``AsyncOperation``'s `run()` and the tasks
/// it makes), so that a wait for its own queue does not wait for it (S21).
enum RunningOperation {
    @TaskLocal static var current: ConditionalOperation?
}
