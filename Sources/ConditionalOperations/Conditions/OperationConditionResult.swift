/// The answer of an ``OperationCondition``.
public enum OperationConditionResult: Sendable {
    /// The operation may execute (as far as this condition is concerned).
    case satisfied
    /// The operation must not execute; the error is added to its ``ConditionalOperation/errors``.
    case failed(any Error)
    /// There is nothing to do: unless another condition fails, the operation finishes without
    /// executing and without an error, ``ConditionalOperation/isSkipped`` `true`, and its
    /// dependents go on as after a success (S17). ``SkippingCondition`` answers it where its base
    /// condition fails.
    case skipped
}
