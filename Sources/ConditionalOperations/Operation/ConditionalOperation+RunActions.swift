import ConditionalOperationsMachines
import Foundation

/// The runner's half for the entry points: each public method is lock → one event → unlock →
/// `perform` its action, and every such action is performed here, by a `switch` over it, outside
/// the lock. The steps towards readiness, the steps every action may leave (``Followup``) and the
/// delivery of callbacks are in `+Runner`.
extension ConditionalOperation {
    func perform(_ action: Machine.StartAction) {
        switch action {
        case .misuse:
            Misuse.trap("\(diagnosticName): start() called twice (S13: an operation starts once)")
        case .launched(let followup):
            perform(followup)
        case .wait:
            break
        case .admit:
            // Started by hand before its dependencies finished: they wake it (no queue asks).
            if !queryReadiness(context: .start) { wakeWhenFinished(dependencies) }
        case .checkDependencies:
            let dependenciesFinished = self.dependenciesFinished
            perform(machine.withLock { $0.startChecked(dependenciesFinished: dependenciesFinished) })
        }
    }

    func perform(_ action: Machine.CheckedStartAction) {
        switch action {
        case .misuse:
            perform(Machine.StartAction.misuse)
        case .launched(let followup):
            perform(followup)
        case .declined(let owner):
            owner.startDeclined()
            // One that finished before the decline was recorded found nothing to hand over: ask.
            if dependenciesFinished { _ = queryReadiness(context: .callback) }
        case .waiting:
            if dependenciesFinished { _ = queryReadiness(context: .start) }
        }
    }

    /// `deferred`: dependencies Foundation does not list the operation in yet; added once it
    /// is cancelled there, Foundation keeps them without listing it.
    func perform(_ action: Machine.CancelAction, adding deferred: [Foundation.Operation]) {
        guard case .cancelled(let followup) = action else { return }
        cancelInFoundation()
        for dependency in deferred { super.addDependency(dependency) }
        perform(followup)
    }

    func perform(_ action: Machine.FinishAction) {
        switch action {
        case .finishing(let followup), .deferred(let followup):
            perform(followup)
        case .deliverNow(let effect, let observers):
            deliver(first: effect, to: observers)
        case .ignored:
            #if DEBUG
                if !isCancelled {
                    MisuseLog.log(
                        "\(diagnosticName): finish called again and ignored (S6: the first finish wins)")
                }
            #endif
        }
    }

    func perform(_ action: Machine.AddConditionAction, _ condition: some OperationCondition) {
        switch action {
        case .added, .ignored:
            break
        case .misuse:
            Misuse.trap(
                "\(diagnosticName): addCondition(\(condition.name)) after the operation was admitted and its "
                    + "conditions evaluated (S13: add conditions first, before dependencies, enqueuing, "
                    + "start() or any isReady query)")
        }
    }

    func perform(_ action: Machine.AddObserverAction, _ observer: some OperationObserver) {
        if case .tellFinished(let errors) = action {
            observer.operationDidFinish(self, errors: errors)  // too late to be told in order
        }
    }

    /// Runs `operation` on the queue the machine named, then tells observers (S10).
    func perform(
        _ action: Machine.PlaceProducedAction, producing operation: Foundation.Operation
    ) {
        switch action {
        case .addToOwner(let queue):
            queue.addOperation(operation)
        case .addToCurrentQueue:
            // Asking for the current queue costs system calls on Linux: only when it can help.
            (ConditionalOperationQueue.current ?? LibraryQueue.shared).addOperation(operation)
        case .addToLibraryQueue:
            LibraryQueue.shared.addOperation(operation)
        }
        perform(machine.withLock { $0.produce(operation) })
    }

    /// A waiter registered before the operation finished runs then; otherwise now.
    func perform(_ action: Machine.AddWaiterAction, _ waiter: Machine.Waiter) {
        switch action {
        case .registered: break
        case .runNow: waiter.run()
        }
    }

    /// Returns whether the operation became ready now: the queue then hands it to Foundation
    /// itself, with the rest of its batch (``OperationStateMachine/Followup/Readiness/admitted``).
    /// `queue` and `dependenciesFinished`: those of the ``enqueue(on:dependenciesFinished:)`` it
    /// answers.
    func perform(
        _ action: Machine.EnqueueAction, queue: ConditionalOperationQueue,
        dependenciesFinished: Bool
    ) -> Bool {
        switch action {
        case .misuse:
            Misuse.trap(
                "\(diagnosticName): added to a queue while already in one or started "
                    + "(S13: an operation is added to one queue, once)")
        case .ready:
            return true
        case .coalesce:
            return enqueueCoalescing(on: queue, dependenciesFinished: dependenciesFinished)
        case .held(let action):
            let followup = advance(action, context: .admission).followup
            perform(followup)
            return followup.readiness == .admitted
        }
    }
}
