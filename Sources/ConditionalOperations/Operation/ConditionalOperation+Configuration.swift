import ConditionalOperationsMachines
import Foundation

/// What a user adds to an operation besides dependencies: conditions, observers, and the
/// operations it produces (S10). Each is one trip through the lock, then the action performed.
extension ConditionalOperation {
    /// Adds a condition that must be satisfied before the operation executes.
    ///
    /// Add conditions first, before enqueuing or starting: the first `isReady` query that finds
    /// every dependency finished admits the operation and evaluates its conditions (a queue's, or
    /// your own; `addDependency(_:)` asks nothing). Adding a condition once the operation was
    /// admitted is a programming error (S13).
    public func addCondition(_ condition: some OperationCondition) {
        let categories = condition.mutuallyExclusiveCategories
        // `MutuallyExclusive` and `RateLimit` are always satisfied and have no dependency: only
        // their categories count.
        let evaluates = !(condition is MutuallyExclusive || condition is RateLimit)
        perform(
            machine.withLock { $0.addCondition(evaluates ? condition : nil, categories: categories) },
            condition)
    }

    /// Adds an observer. An observer added after the operation finished gets `operationDidFinish` at once.
    public func addObserver(_ observer: some OperationObserver) {
        let kept = KeptObserver(observer)  // made before the lock is taken
        perform(machine.withLock { $0.addObserver(kept) }, observer)
    }

    /// Runs `operation` on this operation's queue, and tells observers through
    /// `operation(_:didProduce:)` (S10).
    ///
    /// The queue is the ``ConditionalOperationQueue`` it was added to; on a plain `OperationQueue`,
    /// the queue running it when called from `execute()` itself. Otherwise (produced before it
    /// started, or later from another thread of a plain queue) a queue of the library's runs it.
    public func produceOperation(_ operation: Foundation.Operation) {
        let thread = ThreadIdentity.current
        perform(machine.withLock { $0.placeProduced(on: thread) }, producing: operation)
    }
}
