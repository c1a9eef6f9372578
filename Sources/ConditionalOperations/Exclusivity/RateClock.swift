import Dispatch

/// The time rate limits read and the timer that wakes their waiters (S28): the process's
/// monotonic clock, or a test's own, so that a test decides when time passes.
protocol RateClock: Sendable {
    /// Now, in nanoseconds on a monotonic clock.
    var now: UInt64 { get }

    /// Runs `handler` once, at `deadline` (nanoseconds on the same clock) or soon after, holding
    /// no thread while it waits.
    func wake(at deadline: UInt64, _ handler: @escaping @Sendable () -> Void)
}

/// The process's monotonic clock (Dispatch's uptime), and Dispatch's timers.
struct MonotonicRateClock: RateClock {
    var now: UInt64 { DispatchTime.now().uptimeNanoseconds }

    func wake(at deadline: UInt64, _ handler: @escaping @Sendable () -> Void) {
        DispatchQueue.global().asyncAfter(
            deadline: DispatchTime(uptimeNanoseconds: deadline), execute: handler)
    }
}
