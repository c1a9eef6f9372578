import Foundation

/// An observer whose closures run on the main actor, for UI code; any of them may be `nil`.
///
/// ```swift
/// operation.addObserver(
///     MainActorObserver(didFinish: { _, errors in
///         viewModel.isBusy = false  // a @MainActor view model
///         viewModel.errors = errors
///     }))
/// ```
///
/// Each callback is sent to the main actor when the operation makes it, and they run there in
/// S1's order. They run later than a plain observer's: `operationDidFinish` may run after
/// `isFinished` flipped and dependents started. The main actor must be running (an app, or an
/// `async` main).
public struct MainActorObserver: OperationObserver {
    private let didStart: (@MainActor @Sendable (ConditionalOperation) -> Void)?
    private let didProduce: (@MainActor @Sendable (ConditionalOperation, Foundation.Operation) -> Void)?
    private let didCancel: (@MainActor @Sendable (ConditionalOperation, [any Error]) -> Void)?
    private let didFinish: (@MainActor @Sendable (ConditionalOperation, [any Error]) -> Void)?

    /// Creates an observer that calls the given closures on the main actor.
    public init(
        didStart: (@MainActor @Sendable (ConditionalOperation) -> Void)? = nil,
        didProduce: (@MainActor @Sendable (ConditionalOperation, Foundation.Operation) -> Void)? = nil,
        didCancel: (@MainActor @Sendable (ConditionalOperation, [any Error]) -> Void)? = nil,
        didFinish: (@MainActor @Sendable (ConditionalOperation, [any Error]) -> Void)? = nil
    ) {
        self.didStart = didStart
        self.didProduce = didProduce
        self.didCancel = didCancel
        self.didFinish = didFinish
    }

    /// Sends the `didStart` closure, if any, to the main actor; it runs there later.
    public func operationDidStart(_ operation: ConditionalOperation) {
        guard let didStart else { return }
        MainActorHop.perform { didStart(operation) }
    }

    /// Sends the `didProduce` closure, if any, to the main actor; it runs there later.
    public func operation(_ operation: ConditionalOperation, didProduce newOperation: Foundation.Operation) {
        guard let didProduce else { return }
        MainActorHop.perform { didProduce(operation, newOperation) }
    }

    /// Sends the `didCancel` closure, if any, to the main actor; it runs there later.
    public func operationDidCancel(_ operation: ConditionalOperation, errors: [any Error]) {
        guard let didCancel else { return }
        MainActorHop.perform { didCancel(operation, errors) }
    }

    /// Sends the `didFinish` closure, if any, to the main actor; it may run there after
    /// `isFinished` became `true`.
    public func operationDidFinish(_ operation: ConditionalOperation, errors: [any Error]) {
        guard let didFinish else { return }
        MainActorHop.perform { didFinish(operation, errors) }
    }
}
