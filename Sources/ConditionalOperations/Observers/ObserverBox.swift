import Foundation

/// An observer other than a `BlockObserver`, as an operation keeps it (``KeptObserver``): one
/// reference, whose calls reach the observer's own methods (``TypedObserverBox``).
///
/// Not `Sendable`: it is kept in the operation's machine, under the operation's lock, and handed to
/// the thread delivering a callback by the action that lock hands out. What it holds, the observer,
/// is `Sendable` and never changes.
class ObserverBox {
    func operationDidStart(_ operation: ConditionalOperation) {}
    func operation(_ operation: ConditionalOperation, didProduce newOperation: Foundation.Operation) {}
    func operationDidCancel(_ operation: ConditionalOperation, errors: [any Error]) {}
    func operationDidFinish(_ operation: ConditionalOperation, errors: [any Error]) {}
}

/// One observer of an operation, boxed as it is added (outside the operation's lock).
final class TypedObserverBox<Observer: OperationObserver>: ObserverBox {
    let observer: Observer

    init(_ observer: Observer) {
        self.observer = observer
    }

    override func operationDidStart(_ operation: ConditionalOperation) {
        observer.operationDidStart(operation)
    }

    override func operation(_ operation: ConditionalOperation, didProduce newOperation: Foundation.Operation)
    {
        observer.operation(operation, didProduce: newOperation)
    }

    override func operationDidCancel(_ operation: ConditionalOperation, errors: [any Error]) {
        observer.operationDidCancel(operation, errors: errors)
    }

    override func operationDidFinish(_ operation: ConditionalOperation, errors: [any Error]) {
        observer.operationDidFinish(operation, errors: errors)
    }
}
