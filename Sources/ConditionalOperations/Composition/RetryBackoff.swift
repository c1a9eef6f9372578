import Foundation

/// How long a ``RetryOperation`` waits after a failed attempt before the next one, or whether
/// it stops retrying.
///
/// ```swift
/// let backoffs: [RetryBackoff] = [
///     .immediate,
///     .constant(.seconds(2)),  // 2 s after every failure
///     // 0.5, 1, 2, 4 … 30 s, each shortened by up to half (jitter)
///     .exponential(initial: .milliseconds(500), multiplier: 2, maximum: .seconds(30)),
///     .custom { attempt, errors in errors.contains { $0 is FatalError } ? nil : Double(attempt) },
/// ]
/// ```
///
/// Intervals are `Duration`s (the `TimeInterval` forms are deprecated);
/// ``delay(afterAttempt:errors:)`` and ``custom(_:)`` count in seconds.
public struct RetryBackoff: Sendable {
    private let delay: @Sendable (_ attempt: Int, _ errors: [any Error]) -> TimeInterval?

    private init(_ delay: @escaping @Sendable (_ attempt: Int, _ errors: [any Error]) -> TimeInterval?) {
        self.delay = delay
    }

    /// The next attempt starts at once.
    public static let immediate = RetryBackoff { _, _ in 0 }

    /// The same wait after every failed attempt.
    public static func constant(_ interval: Duration) -> RetryBackoff {
        constant(seconds: interval.timeInterval)
    }

    /// The same wait after every failed attempt, in seconds.
    @available(*, deprecated, message: "pass a Duration: .constant(.seconds(n))")
    public static func constant(_ interval: TimeInterval) -> RetryBackoff {
        constant(seconds: interval)
    }

    private static func constant(seconds interval: TimeInterval) -> RetryBackoff {
        ValueCheck.require(ValueCheck.interval(interval, call: "RetryBackoff.constant(\(interval))"))
        return RetryBackoff { _, _ in interval }
    }

    /// A wait that grows exponentially: `initial × multiplierⁿ⁻¹` after the n-th attempt, at most
    /// `maximum`, then shortened by a random part of up to `jitter` of it (0 … 1), so that
    /// operations failing together don't retry together.
    ///
    /// With `jitter` 0.5 (the default) the wait is drawn uniformly between half and all of the
    /// computed one; with 1, between none and all of it ("full jitter"); with 0, it is exact.
    public static func exponential(
        initial: Duration, multiplier: Double = 2, maximum: Duration = .seconds(60), jitter: Double = 0.5
    ) -> RetryBackoff {
        exponential(
            seconds: initial.timeInterval, multiplier: multiplier, maximum: maximum.timeInterval,
            jitter: jitter)
    }

    /// ``exponential(initial:multiplier:maximum:jitter:)-(Duration,_,_,_)``, with `initial` and
    /// `maximum` in seconds.
    @available(
        *, deprecated, message: "pass Durations: .exponential(initial: .seconds(n), maximum: .seconds(m))"
    )
    public static func exponential(
        initial: TimeInterval, multiplier: Double = 2, maximum: TimeInterval = 60, jitter: Double = 0.5
    ) -> RetryBackoff {
        exponential(seconds: initial, multiplier: multiplier, maximum: maximum, jitter: jitter)
    }

    private static func exponential(
        seconds initial: TimeInterval, multiplier: Double, maximum: TimeInterval, jitter: Double
    ) -> RetryBackoff {
        let call =
            "RetryBackoff.exponential(initial: \(initial), multiplier: \(multiplier), maximum: \(maximum), "
            + "jitter: \(jitter))"
        ValueCheck.require(
            ValueCheck.interval(initial, call: call) ?? ValueCheck.interval(maximum, call: call))
        ValueCheck.require(
            ValueCheck.factor(multiplier, named: "multiplier", call: call)
                ?? ValueCheck.factor(jitter, named: "jitter", call: call))
        let jitter = min(max(jitter, 0), 1)
        return RetryBackoff { attempt, _ in
            let exact = min(maximum, initial * pow(multiplier, Double(max(attempt, 1) - 1)))
            guard jitter > 0, exact > 0 else { return exact }
            return exact * (1 - Double.random(in: 0...jitter))
        }
    }

    /// A wait decided by `delay`, given the number of the attempt that failed (from 1) and its
    /// errors; `nil` stops retrying. It is called outside every lock of the library.
    public static func custom(
        _ delay: @escaping @Sendable (_ attempt: Int, _ errors: [any Error]) -> TimeInterval?
    ) -> RetryBackoff {
        RetryBackoff(delay)
    }

    /// The wait after attempt number `attempt` (from 1) failed with `errors`, in seconds, or `nil`
    /// to stop retrying.
    public func delay(afterAttempt attempt: Int, errors: [any Error]) -> TimeInterval? {
        delay(attempt, errors)
    }
}
