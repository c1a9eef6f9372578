import Foundation

extension ConditionalOperationQueue {
    /// Stops the queue, as a server does on `SIGTERM` (S21).
    ///
    /// From the call on, an operation added to this queue (produced by one of its operations, a
    /// condition's dependency, the next iteration of a ``RepeatOperation`` included) does not run:
    /// it is cancelled with ``OperationError/queueShutDown`` and finishes, never lost and never
    /// trapped. The operations added before get `gracePeriod` to finish; then every unfinished one,
    /// executing or waiting (for dependencies, conditions, a category or a slot), is cancelled with
    /// ``OperationError/queueShutDown``. It returns once the queue is idle, holding no thread.
    ///
    /// ```swift
    /// await queue.shutdown(gracePeriod: .seconds(10))
    /// ```
    ///
    /// When the grace period ends, a suspended queue is resumed, so that its cancelled operations
    /// finish. A second call changes nothing (the first call's grace period holds) and returns once
    /// the queue is idle too. Called from an operation of this queue, it does not wait for that
    /// operation (see `waitUntilIdle()`). A queue shut down stays so;
    /// its ``diagnosticReport`` says so.
    public func shutdown(gracePeriod: Duration) async {
        let current = RunningOperation.current
        if beginShutdown() {
            // Idle or out of time, whichever comes first; the other one then changes nothing.
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let isWaiting = Locked(true)
                let end: @Sendable () -> Void = {
                    if isWaiting.clear() { continuation.resume() }
                }
                let seconds =
                    Double(gracePeriod.components.seconds)
                    + Double(gracePeriod.components.attoseconds) / 1e18
                let timer = OneShotTimer.make(
                    at: .after(seconds), qualityOfService: qualityOfService, handler: end)
                timer.resume()
                let held = Locked<(any DispatchSourceTimer)?>(timer)  // Dispatch's timers are not `Sendable`
                whenIdle(excluding: current) {
                    end()
                    held.withLock { $0.take() }?.cancel()
                }
            }
            // Suspended meanwhile: a cancelled operation finishing must not let a waiting one start
            // before it is cancelled too. Resumed then, also if it was suspended before: the
            // cancelled operations must start to finish.
            isSuspended = true
            for operation in unfinishedOperations where operation !== current {
                Self.cancelForShutdown(operation)
            }
            submitCancelledPlainOperations()
            isSuspended = false
        }
        await waitUntilIdle()  // in this task: it excludes `current` too
    }

    /// Cancels `operation` with ``OperationError/queueShutDown`` (a plain one without an error).
    static func cancelForShutdown(_ operation: Foundation.Operation) {
        if let conditional = operation as? ConditionalOperation {
            conditional.cancel(with: OperationError.queueShutDown)
        } else {
            operation.cancel()
        }
    }
}
