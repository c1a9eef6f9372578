import Dispatch

/// A point on the monotonic clock, for diagnostics: how long an operation has been evaluating its
/// conditions, waiting for categories or executing. Read once per phase that can last.
struct Uptime: Comparable, Sendable {
    let nanoseconds: UInt64

    static var now: Uptime { Uptime(nanoseconds: DispatchTime.now().uptimeNanoseconds) }

    /// The seconds from this point to `later`; zero if `later` is earlier.
    func seconds(until later: Uptime = .now) -> Double {
        later.nanoseconds > nanoseconds ? Double(later.nanoseconds - nanoseconds) / 1e9 : 0
    }

    static func < (lhs: Uptime, rhs: Uptime) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
}
