import Foundation

/// The clock of an ``OperationTimeline``, in nanoseconds, never decreasing: the system's, read
/// without calling a closure at every change recorded, or one a test gives.
enum TimelineClock: Sendable {
    case system
    /// Boxed: the clock is one word, copied without a retain when it is the system's.
    case given(GivenClock)

    final class GivenClock: Sendable {
        let read: @Sendable () -> UInt64
        init(_ read: @escaping @Sendable () -> UInt64) { self.read = read }
    }

    @inline(__always)
    func now() -> UInt64 { now(given: nil) }

    /// Now, given `reading`, the ``MonotonicClock`` read in this trip already, if it was: the
    /// system's clock is not read again.
    @inline(__always)
    func now(given reading: UInt64?) -> UInt64 {
        switch self {
        case .system: return reading ?? MonotonicClock.nanoseconds()
        case .given(let clock): return clock.read()
        }
    }
}
