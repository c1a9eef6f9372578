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

/// The time one section under the exclusivity controller's lock works with: its clock read once,
/// when first needed (a section granting only categories never reads it).
///
/// Every question a section asks its rate limits must see the same time: a permit that expired
/// between a failed grant and the timer's check would leave a waiter that time already admitted
/// with neither a grant nor a timer.
struct ClockReading {
    private let clock: any RateClock
    private var reading: UInt64?

    init(_ clock: any RateClock) {
        self.clock = clock
    }

    /// The time of this section: the clock's `now` the first time it is asked, the same after.
    var now: UInt64 {
        mutating get {
            if let reading { return reading }
            let now = clock.now
            reading = now
            return now
        }
    }
}
