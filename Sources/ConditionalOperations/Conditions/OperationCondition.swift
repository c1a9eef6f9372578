import Foundation

/// A requirement an operation must meet before it executes.
///
/// Conditions are evaluated once every dependency of the operation has finished, all of them
/// concurrently. If any fails, the operation finishes without executing and its
/// ``ConditionalOperation/errors`` hold every failure; a failed condition is not a cancellation.
///
/// `evaluate(for:completion:)` is called on whatever thread made the operation ready (often the
/// thread that finished its last dependency): it must not block. Do slow work asynchronously and
/// call `completion` when done, from any thread. A second call of `completion` is ignored.
public protocol OperationCondition: Sendable {
    /// A name for messages and for ``OperationError/conditionFailed(name:)``. Default: the type's name.
    var name: String { get }

    /// Categories the operation must hold exclusively while it executes. Default: none.
    var mutuallyExclusiveCategories: Set<String> { get }

    /// An operation that must finish before the condition is evaluated, or `nil` (the default).
    func dependency(for operation: ConditionalOperation) -> Foundation.Operation?

    /// The operations that must finish before the condition is evaluated, each added as S3 says.
    /// Default: ``dependency(for:)`` when it is not `nil`, else none. A condition that needs
    /// several (a combinator, ``AllOf`` or ``AnyOf``) implements this one.
    func dependencies(for operation: ConditionalOperation) -> [Foundation.Operation]

    /// Decides whether `operation` may execute, and reports it through `completion` exactly once.
    func evaluate(
        for operation: ConditionalOperation,
        completion: @escaping @Sendable (OperationConditionResult) -> Void
    )
}

extension OperationCondition {
    /// The condition type's name, such as `"BlockCondition"`.
    public var name: String { String(describing: Self.self) }

    /// No categories: the condition does not make the operation exclusive.
    public var mutuallyExclusiveCategories: Set<String> { [] }

    /// `nil`: the condition needs no operation to finish before it is evaluated.
    public func dependency(for operation: ConditionalOperation) -> Foundation.Operation? { nil }

    /// ``dependency(for:)``, if it is not `nil`.
    public func dependencies(for operation: ConditionalOperation) -> [Foundation.Operation] {
        dependency(for: operation).map { [$0] } ?? []
    }
}

extension Array where Element == any OperationCondition {
    /// Every condition's dependencies, in order: what an operation or a combinator waits for (S3).
    func dependencies(for operation: ConditionalOperation) -> [Foundation.Operation] {
        flatMap { $0.dependencies(for: operation) }
    }

    /// The conditions, each condition object (an instance of a class) only at its first place
    /// (S13): one object given twice is evaluated once, and asked for its dependencies once, so
    /// its dependency is not added to a queue twice. Values (structs, enums) are all kept: two
    /// equal values may still be two conditions.
    var withoutRepeatedObjects: [any OperationCondition] {
        var seen: Set<ObjectIdentifier> = []
        return filter { condition in
            guard type(of: condition) is AnyClass else { return true }
            return seen.insert(ObjectIdentifier(condition as AnyObject)).inserted
        }
    }

    /// The union of every condition's categories (S7, S18).
    var mutuallyExclusiveCategories: Set<String> {
        reduce(into: []) { $0.formUnion($1.mutuallyExclusiveCategories) }
    }
}
