import Dispatch
import Foundation

extension ConditionalOperation {
    /// Cancels the operation with ``OperationError/timedOut(_:)`` unless it finished `interval`
    /// from now, whatever it is waiting for by then.
    ///
    /// Unlike ``TimeoutObserver``, which counts from the start, a deadline covers the whole life:
    /// dependencies, conditions that never answer, a category that is never given back, the
    /// queue, and execution. Add it when you add the operation to its queue, so that it counts
    /// from there. Cancelled before it executes, the operation abandons what it waited for and
    /// finishes without executing (S4); while it executes, it finishes as any cancelled operation
    /// does (S5). The timer holds no thread and is dropped when the operation finishes. An
    /// `interval` of zero or less is a deadline already past: the operation is cancelled at once.
    ///
    /// ```swift
    /// let sync = SyncOperation()
    /// sync.addDeadline(after: .seconds(30))
    /// queue.addOperation(sync)
    /// ```
    public func addDeadline(after interval: Duration) {
        addDeadline(seconds: interval.timeInterval)
    }

    /// ``addDeadline(after:)-(Duration)``, with `interval` in seconds.
    @available(*, deprecated, message: "pass a Duration: addDeadline(after: .seconds(n))")
    public func addDeadline(after interval: TimeInterval) {
        addDeadline(seconds: interval)
    }

    private func addDeadline(seconds interval: TimeInterval) {
        ValueCheck.require(
            ValueCheck.interval(interval, call: "\(diagnosticName).addDeadline(after: \(interval))"))
        addDeadline(.after(interval), timeout: interval)
    }

    /// Cancels the operation with ``OperationError/timedOut(_:)`` unless it finished by `date`;
    /// the error carries the seconds from now to `date`. See ``addDeadline(after:)-(Duration)``.
    public func addDeadline(at date: Date) {
        ValueCheck.require(
            ValueCheck.interval(date.timeIntervalSinceNow, call: "\(diagnosticName).addDeadline(at: \(date))")
        )
        addDeadline(.at(date), timeout: max(0, date.timeIntervalSinceNow))
    }

    private func addDeadline(_ deadline: OneShotTimer.Deadline, timeout: TimeInterval) {
        let timer = OneShotTimer.make(at: deadline, qualityOfService: qualityOfService) { [weak self] in
            self?.cancel(with: OperationError.timedOut(timeout))
        }
        // The observer holds the timer until the operation finished, then cancels it: an
        // operation that already finished cancels it at once.
        addObserver(DeadlineTimer(timer: Locked(timer)))
        timer.resume()
    }
}

/// The timer of a deadline among its operation's observers, cancelled once it finished.
private struct DeadlineTimer: OperationObserver {
    /// Behind a lock: a dispatch source is not `Sendable`; cancelling it from any thread is safe.
    let timer: Locked<any DispatchSourceTimer>

    func operationDidFinish(_ operation: ConditionalOperation, errors: [any Error]) {
        timer.withLock { $0.cancel() }
    }
}
