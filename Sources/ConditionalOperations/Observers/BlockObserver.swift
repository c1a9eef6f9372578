import Foundation

/// An observer made of closures; any of them may be `nil`.
public struct BlockObserver: OperationObserver {
    private let didStart: (@Sendable (ConditionalOperation) -> Void)?
    private let didProduce: (@Sendable (ConditionalOperation, Foundation.Operation) -> Void)?
    private let didCancel: (@Sendable (ConditionalOperation, [any Error]) -> Void)?
    private let didFinish: (@Sendable (ConditionalOperation, [any Error]) -> Void)?

    /// Creates an observer that calls the given closures.
    public init(
        didStart: (@Sendable (ConditionalOperation) -> Void)? = nil,
        didProduce: (@Sendable (ConditionalOperation, Foundation.Operation) -> Void)? = nil,
        didCancel: (@Sendable (ConditionalOperation, [any Error]) -> Void)? = nil,
        didFinish: (@Sendable (ConditionalOperation, [any Error]) -> Void)? = nil
    ) {
        self.didStart = didStart
        self.didProduce = didProduce
        self.didCancel = didCancel
        self.didFinish = didFinish
    }

    public func operationDidStart(_ operation: ConditionalOperation) {
        didStart?(operation)
    }

    public func operation(_ operation: ConditionalOperation, didProduce newOperation: Foundation.Operation) {
        didProduce?(operation, newOperation)
    }

    public func operationDidCancel(_ operation: ConditionalOperation, errors: [any Error]) {
        didCancel?(operation, errors)
    }

    public func operationDidFinish(_ operation: ConditionalOperation, errors: [any Error]) {
        didFinish?(operation, errors)
    }
}
