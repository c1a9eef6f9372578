import Foundation

/// An observer as an operation keeps it: a reference (``ObserverList``), whose calls reach the
/// observer's own methods without an existential of it.
protocol ObserverBoxing: AnyObject, Sendable {
    /// It may act on `operationDidStart`: any observer but a `BlockObserver` without `didStart`.
    var hearsStart: Bool { get }
    func operationDidStart(_ operation: ConditionalOperation)
    func operation(_ operation: ConditionalOperation, didProduce newOperation: Foundation.Operation)
    func operationDidCancel(_ operation: ConditionalOperation, errors: [any Error])
    func operationDidFinish(_ operation: ConditionalOperation, errors: [any Error])
}

/// One observer of an operation, boxed as it is added (outside the operation's lock).
final class ObserverBox<Observer: OperationObserver>: ObserverBoxing {
    let observer: Observer

    init(_ observer: Observer) {
        self.observer = observer
    }

    var hearsStart: Bool { (observer as? BlockObserver)?.hearsStart ?? true }

    func operationDidStart(_ operation: ConditionalOperation) {
        observer.operationDidStart(operation)
    }

    func operation(_ operation: ConditionalOperation, didProduce newOperation: Foundation.Operation) {
        observer.operation(operation, didProduce: newOperation)
    }

    func operationDidCancel(_ operation: ConditionalOperation, errors: [any Error]) {
        observer.operationDidCancel(operation, errors: errors)
    }

    func operationDidFinish(_ operation: ConditionalOperation, errors: [any Error]) {
        observer.operationDidFinish(operation, errors: errors)
    }
}
