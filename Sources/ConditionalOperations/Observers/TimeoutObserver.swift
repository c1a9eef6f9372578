import Dispatch
import Foundation

/// Cancels an operation with ``OperationError/timedOut(_:)`` if it has not finished `timeout`
/// after it started (S8); the operation then finishes as any cancelled one does (S5).
///
/// ```swift
/// upload.addObserver(TimeoutObserver(timeout: .seconds(30)))
/// ```
///
/// The timer starts at `operationDidStart` and is cancelled at `operationDidFinish`, so it costs
/// nothing once the operation finished. One observer may watch several operations.
///
/// A `timeout` of zero or less is a deadline already past: the operation times out as it starts
/// (`timed out after -0.5 s`), unlike ProcedureKit's `TimeoutObserver`, which sets no timer then.
/// The timeout is a `Duration` (`.seconds(30)`, `.milliseconds(200)`); the `TimeInterval` form is
/// deprecated.
public struct TimeoutObserver: OperationObserver {
    private let timeout: TimeInterval
    private let timers = Timers()

    /// Cancels the operation `timeout` seconds after it started, unless it finished by then; zero
    /// or less, as it starts.
    @available(*, deprecated, message: "pass a Duration: TimeoutObserver(timeout: .seconds(n))")
    public init(timeout: TimeInterval) {
        self.init(seconds: timeout)
    }

    /// Cancels the operation `timeout` after it started, unless it finished by then; zero or
    /// less, as it starts.
    public init(timeout: Duration) {
        self.init(seconds: timeout.timeInterval)
    }

    private init(seconds timeout: TimeInterval) {
        ValueCheck.require(ValueCheck.interval(timeout, call: "TimeoutObserver(timeout: \(timeout))"))
        self.timeout = timeout
    }

    /// Starts the operation's timer: `timeout` seconds from now it cancels the operation with
    /// ``OperationError/timedOut(_:)``, unless the operation finished first.
    public func operationDidStart(_ operation: ConditionalOperation) {
        let timeout = self.timeout
        let timer = OneShotTimer.make(at: .after(timeout), qualityOfService: operation.qualityOfService) {
            [weak operation] in
            operation?.cancel(with: OperationError.timedOut(timeout))
        }
        timers.insert(timer, for: operation)
        timer.resume()
    }

    /// Cancels the operation's timer, if it has one.
    public func operationDidFinish(_ operation: ConditionalOperation, errors: [any Error]) {
        timers.remove(for: operation)?.cancel()
    }

    /// The running timers, one per watched operation.
    private final class Timers: Sendable {
        private let running = Locked<[ObjectIdentifier: any DispatchSourceTimer]>([:])

        func insert(_ timer: any DispatchSourceTimer, for operation: ConditionalOperation) {
            running.withLock { $0[ObjectIdentifier(operation)] = timer }
        }

        func remove(for operation: ConditionalOperation) -> (any DispatchSourceTimer)? {
            running.withLock { $0.removeValue(forKey: ObjectIdentifier(operation)) }
        }
    }
}
