import Foundation

/// Satisfied as soon as one member is (S18): the members are evaluated concurrently; the first
/// satisfied answer decides, the others' late answers are ignored and their asynchronous work
/// (an ``AsyncCondition``'s task) is cancelled. If none is satisfied, it fails when any member
/// failed, with a ``CombinedConditionError`` carrying each failure, and skips when every member
/// skipped. `a || b` builds one.
///
/// ```swift
/// download.addCondition(AnyOf([onWiFi, userAllowsCellular]))
/// download.addCondition(onWiFi || userAllowsCellular)  // the same
/// ```
///
/// It takes every member's dependencies and the union of their exclusivity categories. With no
/// member, it fails with ``OperationError/conditionFailed(name:)``.
public struct AnyOf: OperationCondition {
    /// The members, in order; a condition object (an instance of a class) given more than once
    /// is a member once (S13).
    public let conditions: [any OperationCondition]

    /// Satisfied as soon as one of `conditions` is.
    public init(_ conditions: [any OperationCondition]) {
        self.conditions = conditions.withoutRepeatedObjects
    }

    /// `AnyOf<a, b>`, with the members' names.
    public var name: String { "AnyOf<\(conditions.map(\.name).joined(separator: ", "))>" }

    /// Every member's categories.
    public var mutuallyExclusiveCategories: Set<String> {
        conditions.mutuallyExclusiveCategories
    }

    /// Every member's dependencies, in order.
    public func dependencies(for operation: ConditionalOperation) -> [Foundation.Operation] {
        conditions.dependencies(for: operation)
    }

    /// Evaluates every member at once and answers at the first satisfied one, or once all
    /// answered.
    public func evaluate(
        for operation: ConditionalOperation,
        completion: @escaping @Sendable (OperationConditionResult) -> Void
    ) {
        guard !conditions.isEmpty else {
            return completion(.failed(OperationError.conditionFailed(name: name)))
        }
        let answers = MemberAnswers(count: conditions.count)
        let scope = EvaluationScope()
        for (index, condition) in conditions.enumerated() {
            EvaluationScope.$current.withValue(scope) {
                condition.evaluate(for: operation) { result in
                    guard let summary = answers.record(result, at: index, settlesEarly: result.isSatisfied)
                    else { return }
                    scope.end()  // the others' async work is not needed any more
                    if result.isSatisfied {
                        completion(.satisfied)
                    } else if !summary.indexedFailures.isEmpty {
                        completion(.failed(CombinedConditionError(name: self.name, errors: summary.failures)))
                    } else {
                        completion(.skipped)
                    }
                }
            }
        }
    }
}
