import Foundation

/// S27, coalescing: an operation with a coalescing key, added to a `ConditionalOperationQueue`
/// while an unfinished operation of its class with that key is there, joins that one instead of
/// executing, and finishes as it did. The queue finds the one to join (`InFlightKeys`); the
/// machine only records the key's presence and the joining phase (``Phase/joining(_:)``).
extension OperationStateMachine {
    public enum SetCoalescingKeyAction: Equatable, Sendable {
        case set
        /// Added to a queue or started already: too late to join anything (S13).
        case misuse
    }

    /// A coalescing key is set (or cleared): only before the operation is added or started.
    @inlinable public mutating func setCoalescingKey() -> SetCoalescingKeyAction {
        guard owner == nil, !isStartRequested else { return .misuse }
        switch phase {
        case .initialized, .pending, .evaluating, .acquiring, .ready:
            // Not added yet (an `isReady` query may have moved it on): the queue reads it when adding.
            admissionMarks.coalescingKeySet()
            return .set
        case .joining, .executing, .draining, .finishing, .finished:
            // Added or started: the queue read no key.
            return .misuse
        }
    }

    /// Whether adding it may join another operation: it has a key and nothing moved it on that a
    /// join would have to undo (a start, a cancel, an early finish, conditions answering or
    /// categories held).
    @inlinable public var joinsWhenAdded: Bool {
        guard hasCoalescingEntry, owner == nil, cancellation == .none else { return false }
        switch phase {
        case .initialized(let asked, let count, _), .pending(.unasked, let asked, let count),
            .pending(.asked, let asked, let count):
            // Its conditions were not asked for an answer yet.
            return asked.isEmpty && count == .counted
        case .ready(.execute, let passed):
            // Admitted by an `isReady` query, with no category held.
            return passed == Passed([], .cleared) && categories.isEmpty
        case .pending(.registering, _, _), .pending(.asking, _, _), .pending(.askingAfterDependencies, _, _),
            .evaluating,
            .acquiring, .ready,
            .joining, .executing, .draining, .finishing, .finished:
            return false
        }
    }

    public enum JoinAction: Equatable, Sendable {
        /// Joined: it waits for the operation it joined (``joinedFinished(errors:cancelled:skipped:)``).
        /// The caller keeps its dependencies held back until admission (``deferDependency(_:)``)
        /// out of Foundation for good: it waits for none of them and may finish before them (S33).
        case joined(deferred: [Foundation.Operation])
        /// Moved on since the queue read its key (a cancel, a start): added as any operation is.
        case enqueue
    }

    /// Added to `queue` while an operation of its class with its key is unfinished there: the one
    /// it joins is of type `joined` and named `name` (which event sinks are told).
    @inlinable public mutating func join(
        on queue: Host.Queue,
        joining joined: Foundation.Operation.Type = Foundation.Operation.self,
        named name: String? = nil
    ) -> JoinAction {
        guard joinsWhenAdded else { return .enqueue }
        // Its conditions are not evaluated (S27): let go of once it finished, as abandoned ones are.
        admission.admit(by: queue)
        let deferred = takeDeferredDependencies()
        enter(.joining(asked))
        if hasEventSinks { tellSinks(.joined(joined, name: name)) }
        return .joined(deferred: deferred)
    }

    public enum JoinedFinishedAction: Equatable, Sendable {
        /// Ready to finish as the joined operation did: the caller stores its output in the same
        /// trip (a `ResultOperation`'s), then performs the followup.
        case adopt(Followup)
        /// Cancelled or finished early while it waited: it ends on its own.
        case ignored
    }

    /// The operation it joined finished with `errors`, `cancelled` or `skipped`: it becomes ready,
    /// to finish the same way once started.
    @inlinable public mutating func joinedFinished(errors joined: [any Error], cancelled: Bool, skipped: Bool)
        -> JoinedFinishedAction
    {
        switch phase {
        case .joining:
            // It shares the outcome: a cancelled operation's joiners are cancelled with it.
            outcome.record(contentsOf: joined)
            guard !cancelled else {
                markCancelled(adding: nil)
                let told = queueEffect(.didCancel(errors))
                return .adopt(followup(told: told, becomeReady(.execute, context: .callback)))
            }
            return .adopt(followup(becomeReady(skipped ? .skipped : .joined, context: .callback)))
        case .ready, .executing, .draining, .finishing, .finished:
            // Its own cancel or early finish came first: it ends on its own.
            return .ignored
        case .initialized, .pending, .evaluating, .acquiring:
            fatalError("joinedFinished in phase \(phase): it joined nothing")
        }
    }
}
