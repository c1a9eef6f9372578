/// The answer of an ``OperationCondition``.
public enum OperationConditionResult: Sendable {
    /// The operation may execute (as far as this condition is concerned).
    case satisfied
    /// The operation must not execute; the error is added to its ``ConditionalOperation/errors``.
    case failed(any Error)
}
