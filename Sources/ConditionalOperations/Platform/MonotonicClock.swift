import Foundation

/// The one clock the library reads for what it records (``Uptime``, an ``OperationTimeline``'s
/// times): monotonic, in nanoseconds, read directly. `DispatchTime.now()` reads the same clock on
/// Linux at twice the cost; one clock for both lets an operation's trip read it once for the
/// phase it stamps and for its timeline.
enum MonotonicClock {
    @inline(__always)
    static func nanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
}
