/// Bounds how often operations sharing a name start: at most `permits` of them within any
/// sliding window of `interval`, across every queue of the process (S28).
///
/// Exclusivity (``MutuallyExclusive``) bounds how many operations run at once; a rate limit bounds
/// how often they start, which is what an HTTP API's quota asks:
///
/// ```swift
/// let fetch = ClosureOperation<Void>(name: "fetch") { $0.finish() }
/// fetch.addCondition(RateLimit("api", permits: 10, per: .seconds(1)))  // 10 a second at most
/// ```
///
/// An operation takes its permit as it takes its exclusivity categories: once its other
/// conditions are satisfied, as the last step before it is ready, so on a queue with a free slot
/// taking the permit is starting. Operations wait for a permit first come, first served, holding
/// no thread and no queue slot, and a timer lets the next one in as soon as the window frees a
/// permit. One still waiting for a category holds no place in the permit line meanwhile (S33):
/// otherwise it could hold a permit from a child of the category's holder, which the holder waits
/// for. With categories as well (``MutuallyExclusive``, another `RateLimit`), it takes all of
/// them and its permits at once, or waits holding none. A permit taken is spent: finishing early
/// does not give it back. An operation cancelled while it waits takes none (S4) and lets the next
/// one in. Its ``ConditionalOperation/diagnosis`` names the limit and says when the next permit
/// comes (``OperationDiagnosis/RateLimitWait``).
///
/// A name has one rate: the `permits` and `interval` of the first operation that asks for it.
/// Making the condition records nothing; an operation asking for the name with another rate stops
/// the program naming the operation and both rates (S13): keep the rate limit in one place, a
/// `static let`, and use it everywhere. A rate limit's name is not a category: a
/// ``MutuallyExclusive`` category of the same name is another thing. A group's children each take
/// a permit of their own, even if the group took one.
public struct RateLimit: OperationCondition {
    /// The name operations share the rate limit by.
    public let limitName: String
    /// How many operations may take a permit within any window of ``interval``.
    public let permits: Int
    /// The length of the sliding window.
    public let interval: Duration
    /// Where operations request it, among their categories.
    private let key: String

    /// At most `permits` operations using `name` start within any window of `interval`, across
    /// every queue of the process, first come, first served (S28).
    ///
    /// - Parameters:
    ///   - name: the rate limit's name: operations with the same name share it.
    ///   - permits: at least 1.
    ///   - interval: the sliding window, longer than zero.
    public init(_ name: String, permits: Int, per interval: Duration) {
        let shown = ExclusivityCategory.shown(name)
        guard permits >= 1, interval > .zero else {
            Misuse.trap(
                "\(Self.spelled(shown, permits: permits, per: interval)): permits are at least 1 and the "
                    + "interval longer than zero (S28)")
        }
        limitName = shown
        self.permits = permits
        self.interval = interval
        key = CategoryKey.rate(named: shown, permits: permits, interval: Self.nanoseconds(interval))
    }

    /// `RateLimit<name>`, for messages and diagnoses.
    public var name: String { "RateLimit<\(limitName)>" }

    /// The key under which the operation takes its permit, beside its exclusivity categories
    /// (an operation takes all of them at once).
    public var mutuallyExclusiveCategories: Set<String> { [key] }

    /// Always satisfied: the permit is taken when the operation becomes ready.
    ///
    /// An operation given a `RateLimit` directly keeps only its key and never calls this; a wrapper
    /// such as `SilentCondition` calls it as it calls any condition.
    public func evaluate(
        for operation: ConditionalOperation,
        completion: @escaping @Sendable (OperationConditionResult) -> Void
    ) {
        completion(.satisfied)
    }

    /// `interval` in nanoseconds, at least 1; a longer interval than 584 years is 584 years.
    static func nanoseconds(_ interval: Duration) -> UInt64 {
        let (seconds, overflow) = interval.components.seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return .max }
        let total = seconds.addingReportingOverflow(interval.components.attoseconds / 1_000_000_000)
        return total.overflow ? .max : max(1, UInt64(clamping: total.partialValue))
    }

    /// The rate limit as its initializer is written, for messages.
    static func spelled(_ name: String, permits: Int, per interval: Duration) -> String {
        "RateLimit(\"\(name)\", permits: \(permits), per: \(interval))"
    }

    /// ``spelled(_:permits:per:)`` with the interval in nanoseconds.
    static func spelled(_ name: String, permits: Int, per interval: UInt64) -> String {
        spelled(name, permits: permits, per: .nanoseconds(Int64(clamping: interval)))
    }
}
