/// Keeps an operation from executing when one of its dependencies failed or was cancelled (S9).
///
/// A dependency failed when it is a ``ConditionalOperation`` that finished with errors and was
/// not cancelled. Failures win: the condition fails with
/// ``OperationError/dependenciesFailed(count:)`` if any dependency failed, else with
/// ``OperationError/dependenciesCancelled(count:)`` if any was cancelled (unless cancellations
/// are ignored).
public struct NoFailedDependencies: OperationCondition {
    private let ignoringCancellations: Bool

    /// `ignoringCancellations`: a cancelled dependency does not count.
    public init(ignoringCancellations: Bool = false) {
        self.ignoringCancellations = ignoringCancellations
    }

    public var name: String { "NoFailedDependencies" }

    public func evaluate(
        for operation: ConditionalOperation,
        completion: @escaping @Sendable (OperationConditionResult) -> Void
    ) {
        var failed = 0
        var cancelled = 0
        for dependency in operation.dependencies {
            if dependency.isCancelled {
                cancelled += 1
            } else if let conditional = dependency as? ConditionalOperation, conditional.failed {
                failed += 1
            }
        }
        if failed > 0 {
            completion(.failed(OperationError.dependenciesFailed(count: failed)))
        } else if cancelled > 0 && !ignoringCancellations {
            completion(.failed(OperationError.dependenciesCancelled(count: cancelled)))
        } else {
            completion(.satisfied)
        }
    }
}
