import Foundation

/// Skips the operation where another condition would fail it: the base's failure becomes
/// ``OperationConditionResult/skipped``, so the operation finishes without executing and without
/// an error, and its dependents go on (S17).
///
/// Use it for a precondition that means "nothing to do" rather than "something went wrong": an
/// upload of a file that is already on the server, a refresh of a cache that is fresh.
///
/// ```swift
/// let upload = ClosureOperation<Void>(name: "upload") { $0.finish() }
/// upload.addCondition(SkippingCondition(BlockCondition(name: "has changes") { !changes.isEmpty }))
/// ```
///
/// The base's dependencies and exclusivity categories are kept.
public struct SkippingCondition<Base: OperationCondition>: OperationCondition {
    private let base: Base

    /// Wraps `base`: its failure skips the operation instead.
    public init(_ base: Base) {
        self.base = base
    }

    /// `Skipping<base>`, with the base condition's name.
    public var name: String { "Skipping<\(base.name)>" }

    /// The base condition's categories.
    public var mutuallyExclusiveCategories: Set<String> { base.mutuallyExclusiveCategories }

    /// The base condition's dependency.
    public func dependency(for operation: ConditionalOperation) -> Foundation.Operation? {
        base.dependency(for: operation)
    }

    /// The base condition's dependencies.
    public func dependencies(for operation: ConditionalOperation) -> [Foundation.Operation] {
        base.dependencies(for: operation)
    }

    /// Evaluates the base condition: satisfied when it is, skipped when it fails or skips.
    public func evaluate(
        for operation: ConditionalOperation,
        completion: @escaping @Sendable (OperationConditionResult) -> Void
    ) {
        base.evaluate(for: operation) { result in
            switch result {
            case .satisfied: completion(.satisfied)
            case .failed, .skipped: completion(.skipped)
            }
        }
    }
}
