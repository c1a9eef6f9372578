/// A point on the monotonic clock, for diagnostics: how long an operation has been evaluating its
/// conditions, waiting for categories or executing. Read once per phase that can last, by the
/// operation's storage: the machine stores it and reads no clock.
///
/// Milliseconds in 32 bits, so that it fits beside the phase's other data without growing the
/// operation (the memory target (README, Performance) allows 300 bytes above a `BlockOperation`):
/// durations are right for waits shorter than 49 days, which wrap.
public struct Uptime: Sendable {
    @usableFromInline let milliseconds: UInt32

    /// Not yet recorded: the storage stamps a phase before unlocking (`OperationStateMachine.stamp`).
    public static let unstamped = Uptime(milliseconds: 0)

    @inlinable public init(milliseconds: UInt32) {
        self.milliseconds = milliseconds
    }

    /// The seconds from this point to `later`.
    @inlinable public func seconds(until later: Uptime) -> Double {
        Double(later.milliseconds &- milliseconds) / 1000
    }
}
