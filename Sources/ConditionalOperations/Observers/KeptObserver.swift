import Foundation

/// An observer as an operation keeps it (``ObserverList``): a `BlockObserver`, most observers, as
/// it is, any other boxed (``ObserverBox``). Either is a value the compiler copies field by field;
/// an existential of the observer would make the operation's machine, which keeps it, a value
/// copied through its type's metadata at every action that hands the observers out.
enum KeptObserver {
    case block(BlockObserver)
    case boxed(ObserverBox)

    /// Made as the observer is added, before the operation's lock is taken.
    init(_ observer: some OperationObserver) {
        if let block = observer as? BlockObserver {
            self = .block(block)
        } else {
            self = .boxed(TypedObserverBox(observer))
        }
    }

    /// It may act on `operationDidStart`: any observer but a `BlockObserver` without `didStart`.
    var hearsStart: Bool {
        switch self {
        case .block(let observer): observer.hearsStart
        case .boxed: true
        }
    }

    func operationDidStart(_ operation: ConditionalOperation) {
        switch self {
        case .block(let observer): observer.operationDidStart(operation)
        case .boxed(let observer): observer.operationDidStart(operation)
        }
    }

    func operation(_ operation: ConditionalOperation, didProduce newOperation: Foundation.Operation) {
        switch self {
        case .block(let observer): observer.operation(operation, didProduce: newOperation)
        case .boxed(let observer): observer.operation(operation, didProduce: newOperation)
        }
    }

    func operationDidCancel(_ operation: ConditionalOperation, errors: [any Error]) {
        switch self {
        case .block(let observer): observer.operationDidCancel(operation, errors: errors)
        case .boxed(let observer): observer.operationDidCancel(operation, errors: errors)
        }
    }

    func operationDidFinish(_ operation: ConditionalOperation, errors: [any Error]) {
        switch self {
        case .block(let observer): observer.operationDidFinish(operation, errors: errors)
        case .boxed(let observer): observer.operationDidFinish(operation, errors: errors)
        }
    }
}
