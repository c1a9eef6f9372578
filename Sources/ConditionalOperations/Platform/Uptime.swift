import Dispatch

/// A point on the monotonic clock, for diagnostics: how long an operation has been evaluating its
/// conditions, waiting for categories or executing. Read once per phase that can last.
///
/// Milliseconds in 32 bits, so that it fits beside the phase's other data without growing the
/// operation (the memory target (README, Performance) allows 300 bytes above a `BlockOperation`): durations are right for waits
/// shorter than 49 days, which wrap.
struct Uptime: Sendable {
    private let milliseconds: UInt32

    /// Not yet recorded: the storage stamps a phase before unlocking (`OperationStateMachine.stamp`).
    static let unstamped = Uptime(milliseconds: 0)

    static var now: Uptime {
        Uptime(milliseconds: UInt32(truncatingIfNeeded: DispatchTime.now().uptimeNanoseconds / 1_000_000))
    }

    /// The seconds from this point to `later`.
    func seconds(until later: Uptime = .now) -> Double {
        Double(later.milliseconds &- milliseconds) / 1000
    }
}
