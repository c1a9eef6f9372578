import ConditionalOperationsMachines

extension Uptime {
    /// The monotonic clock now.
    static var now: Uptime { Uptime(nanoseconds: MonotonicClock.nanoseconds()) }

    /// The monotonic clock's reading `nanoseconds` (``MonotonicClock``).
    init(nanoseconds: UInt64) {
        self.init(milliseconds: UInt32(truncatingIfNeeded: nanoseconds / 1_000_000))
    }

    /// The seconds from this point to now.
    func seconds() -> Double {
        seconds(until: .now)
    }
}
