import Foundation

/// Evaluates another condition without its dependency: ``OperationCondition/dependency(for:)``
/// returns `nil`, everything else is the base condition's.
public struct SilentCondition<Base: OperationCondition>: OperationCondition {
    private let base: Base

    /// Wraps `base` and drops its dependency.
    public init(_ base: Base) {
        self.base = base
    }

    /// `Silent<base>`, with the base condition's name.
    public var name: String { "Silent<\(base.name)>" }

    /// The base condition's categories: silencing drops the dependency only.
    public var mutuallyExclusiveCategories: Set<String> { base.mutuallyExclusiveCategories }

    /// `nil`, whatever the base condition returns: the point of a silent condition.
    public func dependency(for operation: ConditionalOperation) -> Foundation.Operation? { nil }

    /// None, whatever the base condition needs.
    public func dependencies(for operation: ConditionalOperation) -> [Foundation.Operation] { [] }

    /// Evaluates the base condition and passes its answer on unchanged.
    public func evaluate(
        for operation: ConditionalOperation,
        completion: @escaping @Sendable (OperationConditionResult) -> Void
    ) {
        base.evaluate(for: operation, completion: completion)
    }
}
