import Foundation

/// The clock the library reads for what it records and diagnoses (``Uptime``, an
/// ``OperationTimeline``'s times): monotonic, in nanoseconds, read directly. `DispatchTime.now()`
/// reads the same clock on Linux at a higher cost (35 ns against 30 on the 2-core machine); one
/// clock for both lets an operation's trip read it once for the phase it stamps and for its
/// timeline. On Apple platforms it counts time asleep too, as the time a user waited does;
/// `DispatchTime` does not. Rate limits keep a clock of their own.
enum MonotonicClock {
    @inline(__always)
    static func nanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
}
