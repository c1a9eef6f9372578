import Foundation

/// Satisfied when every member is (S18): the members are evaluated concurrently, and it answers
/// once all of them did. If any failed, it fails with a ``CombinedConditionError`` carrying each
/// failure (the operation's ``ConditionalOperation/errors`` get each of them); else, if any
/// skipped, it skips; else it is satisfied. `a && b` builds one.
///
/// ```swift
/// upload.addCondition(AllOf([signedIn, online]))
/// upload.addCondition(signedIn && online)  // the same
/// ```
///
/// It takes every member's dependencies and the union of their exclusivity categories. With no
/// member, it is satisfied.
public struct AllOf: OperationCondition {
    /// The members, in order; a condition object (an instance of a class) given more than once
    /// is a member once (S13).
    public let conditions: [any OperationCondition]

    /// Satisfied when every one of `conditions` is.
    public init(_ conditions: [any OperationCondition]) {
        self.conditions = conditions.withoutRepeatedObjects
    }

    /// `AllOf<a, b>`, with the members' names.
    public var name: String { "AllOf<\(conditions.map(\.name).joined(separator: ", "))>" }

    /// Every member's categories.
    public var mutuallyExclusiveCategories: Set<String> {
        conditions.mutuallyExclusiveCategories
    }

    /// Every member's dependencies, in order.
    public func dependencies(for operation: ConditionalOperation) -> [Foundation.Operation] {
        conditions.dependencies(for: operation)
    }

    /// Evaluates every member at once and answers when all of them did.
    public func evaluate(
        for operation: ConditionalOperation,
        completion: @escaping @Sendable (OperationConditionResult) -> Void
    ) {
        guard !conditions.isEmpty else { return completion(.satisfied) }
        let answers = MemberAnswers(count: conditions.count)
        for (index, condition) in conditions.enumerated() {
            condition.evaluate(for: operation) { result in
                guard let summary = answers.record(result, at: index, settlesEarly: false) else { return }
                if !summary.indexedFailures.isEmpty {
                    completion(.failed(CombinedConditionError(name: self.name, errors: summary.failures)))
                } else {
                    completion(summary.skipped ? .skipped : .satisfied)
                }
            }
        }
    }
}
