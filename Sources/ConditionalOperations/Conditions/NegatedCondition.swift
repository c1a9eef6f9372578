import Foundation

/// Inverts another condition: satisfied when the base fails, and failed with
/// ``OperationError/conditionFailed(name:)`` when the base is satisfied; a skip stays a skip.
///
/// The base condition's dependency is kept; its exclusivity categories are not (a negated
/// condition does not need the category to decide).
public struct NegatedCondition<Base: OperationCondition>: OperationCondition {
    private let base: Base

    /// Wraps `base` and inverts its answer.
    public init(_ base: Base) {
        self.base = base
    }

    /// `Not<base>`, with the base condition's name: also the name in the failure
    /// ``OperationError/conditionFailed(name:)``.
    public var name: String { "Not<\(base.name)>" }

    /// The base condition's dependency, which its evaluation may need.
    public func dependency(for operation: ConditionalOperation) -> Foundation.Operation? {
        base.dependency(for: operation)
    }

    /// The base condition's dependencies.
    public func dependencies(for operation: ConditionalOperation) -> [Foundation.Operation] {
        base.dependencies(for: operation)
    }

    /// Evaluates the base condition and answers the opposite: satisfied when the base fails,
    /// whatever its error, and failed with ``OperationError/conditionFailed(name:)`` when it is
    /// satisfied.
    public func evaluate(
        for operation: ConditionalOperation,
        completion: @escaping @Sendable (OperationConditionResult) -> Void
    ) {
        let name = self.name
        base.evaluate(for: operation) { result in
            switch result {
            case .satisfied: completion(.failed(OperationError.conditionFailed(name: name)))
            case .failed: completion(.satisfied)
            case .skipped: completion(.skipped)  // a negated skip is a skip (S18)
            }
        }
    }
}
