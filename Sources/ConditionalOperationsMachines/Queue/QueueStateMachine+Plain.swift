import Foundation

/// Where a plain operation (not a `ConditionalOperation`) goes on the queue.
extension QueueStateMachine {
    /// What a plain operation's own state says, read outside the lock (it may be overridden).
    package struct PlainFacts: Equatable {
        package var isCancelled: Bool
        package var isReady: Bool
        /// Some of its dependencies are unfinished.
        package var awaitsDependencies: Bool

        package init(isCancelled: Bool, isReady: Bool, awaitsDependencies: Bool) {
            self.isCancelled = isCancelled
            self.isReady = isReady
            self.awaitsDependencies = awaitsDependencies
        }
    }

    /// Where a plain operation goes.
    ///
    /// Foundation tells nobody but its own queue when a plain operation's `isReady` changes, as a
    /// cancel does. Without a concurrency limit to share, Foundation's scheduler runs one that
    /// must wait; with one, it is submitted once its dependencies finished (a cancel meanwhile is
    /// noticed then, or by `cancelAllOperations()`), and waits for a slot as every operation does.
    /// Given one, if its own `isReady` still says no (Foundation counts the last dependency's
    /// finish after the queue heard of it, or the operation overrides `isReady`), Foundation's
    /// scheduler runs it and the slot stays its own until it finished: the limit holds.
    package enum PlainRoute: Equatable {
        /// Ready, or cancelled (it starts at once and finishes, as on Foundation's queue): submit it.
        case submit
        /// Foundation's scheduler runs it; the queue watches it finish.
        case handToFoundation
        /// It waits in ``waitingPlain`` for its dependencies (the queue watches them), then comes
        /// back with ``plainDependenciesFinished(_:facts:)``.
        case awaitDependencies
        /// `cancelAllOperations()` or a shutdown submitted it meanwhile: nothing to do.
        case none
    }

    /// A plain operation is added, or was started while a dependency added since it was submitted
    /// has not finished.
    package mutating func routePlain(_ operation: Foundation.Operation, facts: PlainFacts) -> PlainRoute {
        if facts.isCancelled || !facts.awaitsDependencies && facts.isReady { return .submit }
        // No limit to share: Foundation's scheduler hears its readiness change.
        guard limit != OperationQueue.defaultMaxConcurrentOperationCount else {
            unslottedPlain[ObjectIdentifier(operation)] = operation
            return .handToFoundation
        }
        // A slot first, then Foundation's scheduler (see ``PlainRoute``).
        guard facts.awaitsDependencies else { return .submit }
        waitingPlain[ObjectIdentifier(operation)] = operation
        return .awaitDependencies
    }

    /// The dependencies a plain operation in ``waitingPlain`` waited for finished.
    package mutating func plainDependenciesFinished(_ operation: Foundation.Operation, facts: PlainFacts)
        -> PlainRoute
    {
        if facts.awaitsDependencies, !facts.isCancelled {
            // Dependencies added meanwhile: it waits for them too.
            waitingPlain[ObjectIdentifier(operation)] = operation
            return .awaitDependencies
        }
        guard waitingPlain.removeValue(forKey: ObjectIdentifier(operation)) != nil else { return .none }
        // Its own `isReady` may say no still: it waits for a slot all the same (see ``PlainRoute``).
        return .submit
    }

    /// A plain operation Foundation's scheduler ran finished: if it ran without a slot, a limit
    /// set from now on holds.
    package mutating func plainFinished(_ operation: Foundation.Operation) {
        guard !unslottedPlain.isEmpty else { return }
        unslottedPlain[ObjectIdentifier(operation)] = nil
    }

    /// Those of `cancelled` (plain operations that waited for their dependencies) still waiting:
    /// the queue submits them, and they finish at once, as on Foundation's queue.
    package mutating func takeCancelledPlain(_ cancelled: [Foundation.Operation]) -> [Foundation.Operation] {
        cancelled.filter { waitingPlain.removeValue(forKey: ObjectIdentifier($0)) != nil }
    }
}
