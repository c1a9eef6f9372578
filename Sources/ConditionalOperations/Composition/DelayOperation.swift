import Dispatch
import Foundation

/// An operation that waits: for an interval after it starts executing, or until a date.
///
/// Make it a dependency to delay another operation. Waiting holds no thread (a
/// `DispatchSourceTimer`, cancelled when the operation finishes). Cancelling it finishes it at
/// once; a dependent then starts at once too (unless it guards against cancelled dependencies
/// with ``NoFailedDependencies``).
///
/// ```swift
/// let pause = DelayOperation(interval: .seconds(2))
/// retry.addDependency(pause)
/// ```
public final class DelayOperation: ConditionalOperation, @unchecked Sendable {
    // mutable state: `lockedTimer`, behind the operation's own lock (`withOwnLock`)
    private let deadline: OneShotTimer.Deadline
    /// The timer of the wait; only reached under the operation's own lock, which makes every
    /// access exclusive: the operation takes no lock of its own.
    @exclusivity(unchecked) private var lockedTimer = StartedWork<any DispatchSourceTimer>.notStarted

    /// Waits `interval` seconds once it executes; at once for 0 or less.
    @available(*, deprecated, message: "pass a Duration: DelayOperation(interval: .seconds(n))")
    public convenience init(interval: TimeInterval) {
        self.init(seconds: interval)
    }

    /// Waits `interval` once it executes (`.seconds(2)`, `.milliseconds(500)`); at once for zero
    /// or less.
    public convenience init(interval: Duration) {
        self.init(seconds: interval.timeInterval)
    }

    private init(seconds interval: TimeInterval) {
        ValueCheck.require(ValueCheck.interval(interval, call: "DelayOperation(interval: \(interval))"))
        deadline = .after(interval)
        super.init()
    }

    /// Waits until `date` (by the wall clock); at once if it has passed when the operation executes.
    public init(until date: Date) {
        ValueCheck.require(
            ValueCheck.interval(date.timeIntervalSinceNow, call: "DelayOperation(until: \(date))"))
        deadline = .at(date)
        super.init()
    }

    /// Starts the wait.
    public override func execute() {
        let remaining: TimeInterval =
            switch deadline {
            case .after(let interval): interval
            case .at(let date): date.timeIntervalSinceNow
            }
        guard remaining > 0 else { return finish() }
        let source = OneShotTimer.make(at: deadline, qualityOfService: qualityOfService) { [weak self] in
            self?.stopTimer()
            self?.finish()
        }
        // Finished meanwhile (a cancel): the timer is cancelled before it resumes, so it never
        // fires. Resumed either way, while `source` holds it: it is never released suspended.
        if withOwnLock({ lockedTimer.start(source) }) { source.cancel() }
        source.resume()
    }

    /// Cancels the timer: the operation finishes, cancelled or not, holding no timer.
    public override func finished(errors: [any Error]) {
        stopTimer()
    }

    /// Takes the timer out (before `execute()` made it, a cancel is remembered for it) and
    /// cancels it once unlocked.
    private func stopTimer() {
        let stopped = withOwnLock { () -> (any DispatchSourceTimer)? in
            guard case .running(let timer) = lockedTimer else { return lockedTimer.cancel() }
            _ = lockedTimer.end()
            return timer
        }
        stopped?.cancel()
    }
}
