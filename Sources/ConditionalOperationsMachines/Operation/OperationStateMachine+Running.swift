import Foundation

/// From `start()` to `finished`: starting, finishing (S6), producing (S10) and the delivery of
/// callbacks (S1). The cancel (S4, S5) is in `+Cancellation`.
extension OperationStateMachine {
    public enum StartAction: Equatable, Sendable {
        /// `start()` was called before: a misuse (S13).
        case misuse
        /// Query readiness in the `start` context: it launches the operation once ready.
        case admit
        /// Conditions or categories are pending: becoming ready launches the operation.
        case wait
        case launched(Followup)
        /// A dependency was added once it was ready: read whether every dependency finished, then
        /// ``startChecked(dependenciesFinished:)`` (S9).
        case checkDependencies
    }

    @inlinable public mutating func start() -> StartAction {
        guard !isStartRequested else { return .misuse }
        switch phase {
        case .initialized(let asked, let count, let deferred):
            // A manual start admits it; the query that follows adds its deferred dependencies.
            enter(
                deferred.isEmpty
                    ? .pending(.unasked, asked.union(.start), count)
                    : .initialized(asked.union(.start), count, deferred))
            return .admit
        case .pending:
            // Its dependencies may have finished: ask.
            record(.start)
            return .admit
        case .evaluating, .acquiring, .joining:
            // Becoming ready launches it (``becomeReady(_:context:)``).
            record(.start)
            return .wait
        case .ready(_, let passed) where passed.awaitsLateDependency && !isCancelled:
            // A dependency added since it was ready may not have finished (S9).
            return .checkDependencies
        case .ready:
            record(.start)
            return .launched(followup(.launched(launch())))
        case .executing, .draining, .finishing, .finished:
            // Only a start gets there: this is the second.
            return .misuse
        }
    }

    /// Launches an operation whose `start()` came before it was ready (``Followup/launchLater``).
    @inlinable public mutating func launchDeferred() -> Followup {
        switch phase {
        case .ready:
            return followup(.launched(launch()))
        case .executing, .draining, .finishing, .finished:
            // A cancel launched it meanwhile.
            return .nothing
        case .initialized, .pending, .evaluating, .acquiring, .joining:
            fatalError("launchDeferred in phase \(phase): only a ready operation launches")
        }
    }

    public enum FinishAction {
        case finishing(Followup)
        /// Nothing else to deliver: deliver this finishing callback now, on this thread.
        case deliverNow(Effect, Host.Observers)
        /// Finish before executing: errors recorded, the operation finishes without executing
        /// once started (or drained).
        case deferred(Followup)
        /// The operation already finished or finishing was already requested (S6).
        case ignored
    }

    @inlinable public mutating func finish(errors new: [any Error]) -> FinishAction {
        switch phase {
        case .executing(.due) where drainsBeforeFinishing:
            // Finished while `didStart` is delivered (S1: no execute()); it runs others, which
            // still run, cancelled, and finish before it does (S11).
            outcome.record(contentsOf: new)
            enter(.executing(.draining(finishRequested: true)))
            return .deferred(.drain)
        case .executing(.draining(let finishRequested)):
            // S6: recorded; it finishes once what it runs finished.
            guard !finishRequested else { return .ignored }
            outcome.record(contentsOf: new)
            enter(.executing(.draining(finishRequested: true)))
            return .deferred(.nothing)
        case .executing(let execution):
            // The usual end of the work; before `execute()` was called (`didStart` is being
            // delivered), an end without executing (S1), where a cancel that came first still
            // beats the finish.
            outcome.record(contentsOf: new)
            let ending: Ending =
                execution.isCalled ? .executed : .launchedWithoutExecuting(isCancelled: isCancelled)
            guard effects.beginDeliveringIfIdle() else {
                return .finishing(followup(told: queueFinish(ending, thread: execution.thread)))
            }
            dropOfferedCancelErrors()
            enter(.finishing(ending, thread: execution.thread))
            return .deliverNow(finishEffect(ending), listeners.observers)
        case .initialized, .pending, .ready, .draining:
            // S6: recorded; it finishes, without executing, once started (or drained).
            guard !isFinishRequested else { return .ignored }
            record(.finish)
            outcome.record(contentsOf: new)
            return .deferred(.nothing)
        case .evaluating, .acquiring, .joining:
            // S6: recorded, and ready at once: its conditions and categories (or the operation
            // it joined, S27) are abandoned.
            guard !isFinishRequested else { return .ignored }
            record(.finish)
            outcome.record(contentsOf: new)
            let withdraws = abandonConditions()
            return .deferred(followup(releasing: withdraws, becomeReady(.execute, context: .cancel)))
        case .finishing, .finished:
            // S6: the first finish wins.
            return .ignored
        }
    }

    /// Queues `operation`'s `didProduce`, unless the operation was cancelled or finishing began
    /// (too late to tell observers: the operation is only run).
    @inlinable public mutating func produce(_ operation: Foundation.Operation) -> Followup {
        // S1: `didProduce` only before `didCancel`; a cancelled operation that still runs
        // (`finishesWhenCancelled == false`) has its produced operations run, untold.
        guard state < .finishing, !isCancelled else { return .nothing }
        return followup(told: queueEffect(.didProduce(operation)))
    }

    public enum PlaceProducedAction: Equatable, Sendable {
        /// Add it to the ``ConditionalOperationQueue`` that owns this operation.
        case addToOwner(Host.Queue)
        /// Add it to `OperationQueue.current`, the plain queue running `execute()` on this thread,
        /// else to the library's queue.
        case addToCurrentQueue
        /// Add it to the library's queue: no queue of this operation's can be known.
        case addToLibraryQueue
    }

    /// An operation is produced on `thread`: the queue to add it to is the owner's, else the one
    /// that started this operation when called from the thread running `execute()` (where
    /// `OperationQueue.current` is that queue).
    @inlinable public func placeProduced(on thread: ThreadIdentity) -> PlaceProducedAction {
        if let owner { return .addToOwner(owner) }
        switch phase {
        case .executing(let execution) where execution.thread == thread:
            // From `execute()` itself: the queue running it is the current one.
            return .addToCurrentQueue
        case .finishing(_, let executing) where executing == thread:
            // From `finish()` called within `execute()`: the same.
            return .addToCurrentQueue
        case .initialized, .pending, .evaluating, .acquiring, .joining, .ready, .executing, .draining,
            .finishing, .finished:
            // Not from the thread running `execute()`: no queue of its own to be found.
            return .addToLibraryQueue
        }
    }

    // MARK: Delivery

    public enum DeliveryAction {
        /// Deliver this callback to these observers, then ask again.
        case deliver(Effect, Host.Observers)
        /// The start is next: announce it as ``Followup/announceStart`` says, then ask again.
        case announceStart
        /// Call `execute()`; the deliverer is done.
        case execute(onAnotherThread: Bool)
        /// Call `drain()` instead of `execute()`; the deliverer is done.
        case drain
        /// Nothing left: the deliverer is done.
        case done
    }

    /// What the deliverer does next; it runs `execute()` itself if that is next and due on its
    /// thread.
    @inlinable public mutating func nextEffect() -> DeliveryAction {
        if effects.startIsNext { return .announceStart }
        if let effect = effects.popFirst() { return .deliver(effect, listeners.observers) }
        switch phase {
        case .executing(.due) where isCancelled && drainsBeforeFinishing:
            // Cancelled while `didStart` was delivered (S1: no execute()); it runs others, which
            // still run, cancelled, and finish before it does (S11).
            enter(.executing(.draining(finishRequested: false)))
            effects.endDelivery()
            return .drain
        case .executing(.due) where isCancelled:
            // A didStart observer cancelled it while `finishesWhenCancelled` is false: execute()
            // must not run (S1), and nothing else would finish it.
            enter(.finishing(.cancelledAsItStarted, thread: .none))
            return .deliver(finishEffect(.cancelledAsItStarted), listeners.observers)
        case .executing(.due(let onAnotherThread)):
            // Every callback queued before it was delivered.
            enter(.executing(.called(thread: .none, since: .unstamped)))
            stampRequest.ask(onAnotherThread ? .time : .timeAndThread)
            effects.endDelivery()
            return .execute(onAnotherThread: onAnotherThread)
        case .initialized, .pending, .evaluating, .acquiring, .joining, .ready, .executing(.called),
            .executing(.draining), .draining, .finishing, .finished:
            // Nothing due.
            effects.endDelivery()
            return .done
        }
    }

    /// The start's `willChangeValue(forKey: "isExecuting")` was posted: the start leaves the
    /// queue, and `isExecuting` answers `true` from now on. Returns the observers to tell
    /// `operationDidStart`.
    @inlinable public mutating func startAnnounced() -> Host.Observers {
        guard effects.startIsNext else {
            fatalError("startAnnounced in phase \(phase): the start is not next")
        }
        _ = effects.popFirst()
        return listeners.observers
    }

    public enum FinishedAction {
        /// Observers were added while the others heard `operationDidFinish`: tell them, then ask again.
        case tell([Host.Observer])
        /// `isFinished` is `true`: resume the waiters and tell the owner. `dropped` is what the
        /// machine let go of: the caller drops it once unlocked, since an operation's
        /// deinit takes a lock that may be this one (``LockTable``).
        case finished(
            waiters: [Waiter], owner: Host.Queue?,
            dropped: (Host.Observers, [Host.Condition], Host.SinkLog.Sinks?))
    }

    /// The finishing callback was delivered to `notified` observers: `isFinished` becomes `true`,
    /// unless observers were added meanwhile (they hear `operationDidFinish` before it flips).
    @inlinable public mutating func markFinished(notified: Int) -> FinishedAction {
        guard case .finishing(let ending, _) = phase else {
            fatalError("markFinished in phase \(phase): only a finishing operation finishes")
        }
        guard listeners.observers.count == notified else {
            return .tell(listeners.observers.dropFirst(notified))
        }
        let sinks = noteFinishedForSinks()
        enter(.finished(ending))
        effects.endDelivery()  // the finishing callback is the last: its deliverer is done
        let (observers, waiters) = listeners.take()
        let (owner, conditions) = admission.take()
        return .finished(waiters: waiters, owner: owner, dropped: (observers, conditions, sinks))
    }

    /// The operation started without executing and drained what it runs: it finishes with
    /// `errors` added to its own.
    @inlinable public mutating func drained(errors new: [any Error]) -> Followup {
        switch phase {
        case .draining(let ending, _):
            // Started without executing: it finishes the way it was started.
            outcome.record(contentsOf: new)
            return followup(told: queueFinish(ending))
        case .executing(.draining):
            // Cancelled or finished as it started: `didStart` was told, `execute()` was not called.
            outcome.record(contentsOf: new)
            return followup(told: queueFinish(.launchedWithoutExecuting(isCancelled: isCancelled)))
        case .initialized, .pending, .evaluating, .acquiring, .joining, .ready, .executing(.due),
            .executing(.called),
            .finishing, .finished:
            fatalError("drained(errors:) in phase \(phase): it was not draining")
        }
    }

    /// The operation is being deallocated (its dependencies are about to be removed). Returns
    /// the dependencies Foundation does not list it in, to release with the others.
    @inlinable public mutating func beginDeallocation() -> [Foundation.Operation] {
        admissionMarks.beginDeallocation()
        return takeDeferredDependencies()
    }

    /// What the deinit, alone with the machine, reads before deciding whether it has work.
    /// `mutating` so that the operation's stored machine is read in place: read through a
    /// getter, it was copied whole (each of its references retained, then released) in every
    /// operation's deinit.
    @inlinable public mutating func deallocationFacts() -> (
        hasCoalescingEntry: Bool, holdsBackDependencies: Bool
    ) {
        guard case .initialized(_, _, let deferred) = phase else { return (hasCoalescingEntry, false) }
        return (hasCoalescingEntry, !deferred.isEmpty)
    }
}

extension OperationStateMachine.Execution {
    /// The thread `execute()` runs on, if it is the one that started it.
    @inlinable public var thread: ThreadIdentity {
        switch self {
        case .due, .draining: .none
        case .called(let thread, _): thread
        }
    }

    /// Whether `execute()` was called: an end from now on is the end of the work.
    @inlinable public var isCalled: Bool {
        switch self {
        case .due, .draining: false
        case .called: true
        }
    }
}
