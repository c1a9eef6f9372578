/// Keeps an operation from executing when one of its dependencies failed or was cancelled (S9).
///
/// A dependency failed when it is a ``ConditionalOperation`` that finished with errors and was
/// not cancelled, or that timed out (cancelled with ``OperationError/timedOut(_:)``: the work did
/// not finish in time, so `ignoringCancellations` does not let it pass). Failures win: the condition fails with
/// ``OperationError/dependenciesFailed(_:)`` listing every failed dependency if any failed, else
/// with ``OperationError/dependenciesCancelled(_:)`` listing every cancelled one (unless
/// cancellations are ignored). Each ``OperationError/FailedDependency`` carries the dependency's
/// name and its own errors, so the dependent's error leads to the root cause.
public struct NoFailedDependencies: OperationCondition {
    private let ignoringCancellations: Bool

    /// `ignoringCancellations`: a cancelled dependency does not count.
    public init(ignoringCancellations: Bool = false) {
        self.ignoringCancellations = ignoringCancellations
    }

    /// `"NoFailedDependencies"`.
    public var name: String { "NoFailedDependencies" }

    /// Fails if a dependency failed or (unless ignored) was cancelled; see the type's description.
    public func evaluate(
        for operation: ConditionalOperation,
        completion: @escaping @Sendable (OperationConditionResult) -> Void
    ) {
        var failed: [OperationError.FailedDependency] = []
        var cancelled: [OperationError.FailedDependency] = []
        for dependency in operation.dependencies {
            if dependency.countsAsCancelled {
                cancelled.append(OperationError.FailedDependency(dependency))
            } else if let conditional = dependency as? ConditionalOperation, conditional.failed {
                failed.append(OperationError.FailedDependency(dependency))
            }
        }
        if !failed.isEmpty {
            completion(.failed(OperationError.dependenciesFailed(failed)))
        } else if !cancelled.isEmpty && !ignoringCancellations {
            completion(.failed(OperationError.dependenciesCancelled(cancelled)))
        } else {
            completion(.satisfied)
        }
    }
}
