import Foundation

/// An observer made of closures; any of them may be `nil`.
public struct BlockObserver: OperationObserver {
    private let callbacks: Callbacks

    /// Creates an observer that calls the given closures.
    public init(
        didStart: (@Sendable (ConditionalOperation) -> Void)? = nil,
        didProduce: (@Sendable (ConditionalOperation, Foundation.Operation) -> Void)? = nil,
        didCancel: (@Sendable (ConditionalOperation, [any Error]) -> Void)? = nil,
        didFinish: (@Sendable (ConditionalOperation, [any Error]) -> Void)? = nil
    ) {
        callbacks =
            switch (didStart, didProduce, didCancel, didFinish) {
            case (nil, nil, nil, let didFinish?): .didFinish(didFinish)
            case (let didStart?, nil, nil, nil): .didStart(didStart)
            case (nil, nil, nil, nil): .none
            default:
                .several(
                    Several(
                        didStart: didStart, didProduce: didProduce, didCancel: didCancel, didFinish: didFinish
                    ))
            }
    }

    /// Calls the `didStart` closure, if any.
    public func operationDidStart(_ operation: ConditionalOperation) {
        switch callbacks {
        case .didStart(let didStart): didStart(operation)
        case .several(let several): several.didStart?(operation)
        case .didFinish, .none: break
        }
    }

    /// Calls the `didProduce` closure, if any.
    public func operation(_ operation: ConditionalOperation, didProduce newOperation: Foundation.Operation) {
        if case .several(let several) = callbacks { several.didProduce?(operation, newOperation) }
    }

    /// Calls the `didCancel` closure, if any.
    public func operationDidCancel(_ operation: ConditionalOperation, errors: [any Error]) {
        if case .several(let several) = callbacks { several.didCancel?(operation, errors) }
    }

    /// Calls the `didFinish` closure, if any.
    public func operationDidFinish(_ operation: ConditionalOperation, errors: [any Error]) {
        switch callbacks {
        case .didFinish(let didFinish): didFinish(operation, errors)
        case .several(let several): several.didFinish?(operation, errors)
        case .didStart, .none: break
        }
    }

    /// Whether it has a `didStart` closure: with no observer that has, an operation executes
    /// without a trip through its callback queue for the start.
    var hearsStart: Bool {
        switch callbacks {
        case .didStart: true
        case .several(let several): several.didStart != nil
        case .didFinish, .none: false
        }
    }

    /// The closures, small enough for the common observer of one callback to be kept in its
    /// operation's machine as it is (``KeptObserver``), without an allocation of its own (the
    /// memory target (README, Performance) counts bytes per operation).
    private enum Callbacks: Sendable {
        case none
        case didStart(@Sendable (ConditionalOperation) -> Void)
        case didFinish(@Sendable (ConditionalOperation, [any Error]) -> Void)
        case several(Several)
    }

    private final class Several: Sendable {
        let didStart: (@Sendable (ConditionalOperation) -> Void)?
        let didProduce: (@Sendable (ConditionalOperation, Foundation.Operation) -> Void)?
        let didCancel: (@Sendable (ConditionalOperation, [any Error]) -> Void)?
        let didFinish: (@Sendable (ConditionalOperation, [any Error]) -> Void)?

        init(
            didStart: (@Sendable (ConditionalOperation) -> Void)?,
            didProduce: (@Sendable (ConditionalOperation, Foundation.Operation) -> Void)?,
            didCancel: (@Sendable (ConditionalOperation, [any Error]) -> Void)?,
            didFinish: (@Sendable (ConditionalOperation, [any Error]) -> Void)?
        ) {
            self.didStart = didStart
            self.didProduce = didProduce
            self.didCancel = didCancel
            self.didFinish = didFinish
        }
    }
}
