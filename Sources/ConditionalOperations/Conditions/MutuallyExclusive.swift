/// Makes operations that share a category never execute at the same time, across every queue of
/// the process (S7).
///
/// An operation asks for its categories once its other conditions were evaluated and satisfied,
/// and waits its turn, first come first served, holding no thread and no queue slot. An operation
/// with several categories acquires them all at once or waits. It gives them back when it
/// finishes, after its `operationDidFinish` observers and before its dependents can start.
///
/// ```swift
/// alert.addCondition(MutuallyExclusive(category: "alert"))
/// sync.addCondition(MutuallyExclusive(SyncOperation.self))
/// ```
public struct MutuallyExclusive: OperationCondition {
    /// The category's name.
    public let category: String

    /// Exclusive within `category`.
    public init(category: String) {
        self.category = category
    }

    /// Exclusive among operations using the same type: the category is `String(reflecting: type)`.
    public init<T>(_ type: T.Type) {
        self.init(category: String(reflecting: type))
    }

    /// `MutuallyExclusive<category>`, for messages and diagnoses.
    public var name: String { "MutuallyExclusive<\(category)>" }

    /// The one category, ``category``, that the operation holds while it executes.
    public var mutuallyExclusiveCategories: Set<String> { [category] }

    /// Always satisfied: the exclusivity itself is enforced when the operation becomes ready.
    ///
    /// An operation given a `MutuallyExclusive` directly keeps only its categories and never calls
    /// this; a wrapper such as `SilentCondition` calls it as it calls any condition.
    public func evaluate(
        for operation: ConditionalOperation,
        completion: @escaping @Sendable (OperationConditionResult) -> Void
    ) {
        completion(.satisfied)
    }
}
