import Foundation

/// Receives the lifecycle events of a ``ConditionalOperation``.
///
/// For one operation, callbacks never overlap and come in this order: `operationDidStart`
/// (only if it executes), `operation(_:didProduce:)` any number of times, `operationDidCancel`
/// at most once, `operationDidFinish` exactly once. They run outside every lock of the library,
/// on the thread that caused the event. Every method has an empty default implementation.
public protocol OperationObserver: Sendable {
    /// The operation is about to execute.
    func operationDidStart(_ operation: ConditionalOperation)
    /// The operation produced `newOperation` (see ``ConditionalOperation/produceOperation(_:)``).
    func operation(_ operation: ConditionalOperation, didProduce newOperation: Foundation.Operation)
    /// The operation was cancelled; `errors` are its errors at that moment.
    func operationDidCancel(_ operation: ConditionalOperation, errors: [any Error])
    /// The operation finished with `errors` (empty on success). `isFinished` becomes `true` after
    /// every observer returned.
    func operationDidFinish(_ operation: ConditionalOperation, errors: [any Error])
}

extension OperationObserver {
    /// Does nothing: an observer that does not implement it ignores the start.
    public func operationDidStart(_ operation: ConditionalOperation) {}
    /// Does nothing: an observer that does not implement it ignores produced operations.
    public func operation(_ operation: ConditionalOperation, didProduce newOperation: Foundation.Operation) {}
    /// Does nothing: an observer that does not implement it ignores the cancel.
    public func operationDidCancel(_ operation: ConditionalOperation, errors: [any Error]) {}
    /// Does nothing: an observer that does not implement it ignores the finish.
    public func operationDidFinish(_ operation: ConditionalOperation, errors: [any Error]) {}
}
