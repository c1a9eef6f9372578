import Foundation

/// A ``ConditionalOperationQueueDelegate`` whose closures run on the main actor, for UI code.
///
/// ```swift
/// @MainActor final class Jobs {
///     let queue = ConditionalOperationQueue()
///     var running = 0
///     private var delegate: MainActorQueueDelegate?
///
///     init() {
///         delegate = MainActorQueueDelegate(
///             didAdd: { [weak self] _, _ in self?.running += 1 },
///             didFinish: { [weak self] _, _, _ in self?.running -= 1 })
///         queue.delegate = delegate
///     }
/// }
/// ```
///
/// The queue holds its delegate weakly: keep this object alive as long as it should be told. Each
/// callback is sent to the main actor when the queue makes it, and they run there in that order,
/// after the fact: `didAdd` once the operation was added (a plain delegate hears `willAdd` before).
public final class MainActorQueueDelegate: ConditionalOperationQueueDelegate {
    private let didAdd: (@MainActor @Sendable (ConditionalOperationQueue, Foundation.Operation) -> Void)?
    private let didFinish:
        (@MainActor @Sendable (ConditionalOperationQueue, Foundation.Operation, [any Error]) -> Void)?

    /// Creates a delegate that calls the given closures on the main actor.
    public init(
        didAdd: (@MainActor @Sendable (ConditionalOperationQueue, Foundation.Operation) -> Void)? = nil,
        didFinish: (
            @MainActor @Sendable (ConditionalOperationQueue, Foundation.Operation, [any Error]) -> Void
        )? = nil
    ) {
        self.didAdd = didAdd
        self.didFinish = didFinish
    }

    /// Sends the `didAdd` closure, if any, to the main actor; it runs there after the queue added
    /// the operation.
    public func operationQueue(_ queue: ConditionalOperationQueue, willAdd operation: Foundation.Operation) {
        guard let didAdd else { return }
        MainActorHop.perform { didAdd(queue, operation) }
    }

    /// Sends the `didFinish` closure, if any, to the main actor; it runs there later.
    public func operationQueue(
        _ queue: ConditionalOperationQueue, operationDidFinish operation: Foundation.Operation,
        errors: [any Error]
    ) {
        guard let didFinish else { return }
        MainActorHop.perform { didFinish(queue, operation, errors) }
    }
}
