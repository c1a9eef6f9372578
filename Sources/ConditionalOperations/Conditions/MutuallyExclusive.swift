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
/// upload.addCondition(MutuallyExclusive(category: "uploads", limit: 3))  // at most 3 at once
/// ```
///
/// With a limit (S19), at most `limit` operations holding the category execute at once, in the
/// order they asked. A category has one limit: the first one an operation asks for it with
/// (``init(category:limit:)``); `init(category:)` states none and takes the category's, 1 unless
/// another was given. Making the condition records nothing: an operation asking for the category
/// with a different limit than the one it has stops the program naming the operation, the
/// category and both limits (S13); a limit below 1 stops it as the condition is made. A
/// ``GroupOperation`` holding the category takes one unit, which its children needing the
/// category share, one at a time (S7).
///
/// A string names one category for the whole process: two modules that pick the same string
/// share it, and trap if they give it different limits. An ``ExclusivityCategory`` is a category
/// of its own, whatever its name, with its own limit (`MutuallyExclusive(_:)`, S26): prefer it for a
/// category a library or module defines. The characters U+001E and U+001F are reserved: in a string
/// category they become spaces.
public struct MutuallyExclusive: OperationCondition {
    /// The category's name (for an ``ExclusivityCategory``, its ``ExclusivityCategory/name``).
    public let category: String
    /// The category as a value, when made with one (S26).
    private let object: ExclusivityCategory?
    /// The limit given with a string category, if one was.
    private let statedLimit: Int?

    /// Exclusive within `category`: one operation at a time, unless the category was given
    /// another limit (``init(category:limit:)``).
    public init(category: String) {
        self.category = ExclusivityCategory.shown(category)
        object = nil
        statedLimit = nil
    }

    /// Exclusive within `category`, the object itself, whatever its name: at most its
    /// ``ExclusivityCategory/limit`` operations execute at once, across every queue of the process,
    /// first come, first served (S26). Another object with the same name is another category.
    ///
    /// ```swift
    /// let reports = ExclusivityCategory("reports")
    /// let export = ClosureOperation<Void>(name: "export") { $0.finish() }
    /// export.addCondition(MutuallyExclusive(reports))
    /// ```
    public init(_ category: ExclusivityCategory) {
        self.category = category.name
        object = category
        statedLimit = nil
    }

    /// At most `limit` operations holding `category` execute at once, across every queue of the
    /// process, first come, first served (S19). `limit` is at least 1.
    ///
    /// ```swift
    /// let upload = ClosureOperation<Void>(name: "upload") { $0.finish() }
    /// upload.addCondition(MutuallyExclusive(category: "uploads", limit: 3))
    /// ```
    public init(category: String, limit: Int) {
        self.category = ExclusivityCategory.shown(category)
        guard limit >= 1 else {
            Misuse.trap(
                "MutuallyExclusive(category: \"\(self.category)\", limit: \(limit)): a limit is at least 1 (S19)"
            )
        }
        object = nil
        statedLimit = limit
    }

    /// How many operations may hold ``category`` at once: the limit given, if one was; an
    /// ``ExclusivityCategory``'s own; otherwise the category's, 1 unless an operation asked for it
    /// with another.
    public var limit: Int { object?.limit ?? statedLimit ?? ExclusivityController.shared.limit(of: category) }

    /// Exclusive among operations using the same type: the category is `String(reflecting: type)`.
    public init<T>(_ type: T.Type) {
        self.init(category: String(reflecting: type))
    }

    /// `MutuallyExclusive<category>`, for messages and diagnoses.
    public var name: String { "MutuallyExclusive<\(category)>" }

    /// The one category, ``category``, that the operation holds while it executes: its name, with
    /// the limit after it when one was given (diagnostics show the name alone). For an
    /// ``ExclusivityCategory``, a key of that object's own, which diagnostics show by its name.
    public var mutuallyExclusiveCategories: Set<String> {
        [object?.key ?? statedLimit.map { CategoryKey.stating($0, of: category) } ?? category]
    }

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
