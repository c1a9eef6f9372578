import Foundation

/// Evaluates another condition without its dependency: ``OperationCondition/dependency(for:)``
/// returns `nil`, everything else is the base condition's.
public struct SilentCondition<Base: OperationCondition>: OperationCondition {
    private let base: Base

    /// Wraps `base` and drops its dependency.
    public init(_ base: Base) {
        self.base = base
    }

    public var name: String { "Silent<\(base.name)>" }

    public var mutuallyExclusiveCategories: Set<String> { base.mutuallyExclusiveCategories }

    public func dependency(for operation: ConditionalOperation) -> Foundation.Operation? { nil }

    public func evaluate(
        for operation: ConditionalOperation,
        completion: @escaping @Sendable (OperationConditionResult) -> Void
    ) {
        base.evaluate(for: operation, completion: completion)
    }
}
