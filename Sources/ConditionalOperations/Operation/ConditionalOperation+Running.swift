import ConditionalOperationsMachines
import Foundation

/// The runner's delivery of callbacks, from the start to `isFinished`: one at a time, in the
/// machine's order (S1, ``EffectQueue``), outside the operation's lock.
extension ConditionalOperation {
    /// Posts KVO `isExecuting` around the change, tells observers `operationDidStart`, then goes
    /// on delivering (``OperationStateMachine/Followup/Delivery/announceStart``).
    func announceStart() {
        willChange(.isExecuting)
        let observers = machine.withLock { $0.startAnnounced() }
        didChange(.isExecuting)
        deliver(first: .didStart, to: observers)
    }

    /// Delivers queued effects, one at a time, until none is left or `execute()` is due.
    func deliverEffects() {
        while true {
            switch machine.withLock({ $0.nextEffect() }) {
            case .deliver(let effect, let observers):
                guard deliver(effect, to: observers) else { return }
            case .announceStart:
                announceStart()
                return
            case .execute(let onAnotherThread):
                if onAnotherThread {
                    DispatchQueue.global(qos: dispatchQoS).async { self.execute() }
                } else {
                    execute()
                }
                return
            case .drain:
                drain()
                return
            case .done:
                return
            }
        }
    }

    /// Delivers an effect an event handed out instead of queueing it, then whatever was queued
    /// meanwhile.
    func deliver(first effect: Machine.Effect, to observers: ObserverList) {
        if deliver(effect, to: observers) { deliverEffects() }
    }

    /// Delivers one effect; returns `false` after the last one (finishing: nothing follows, S1).
    private func deliver(_ effect: Machine.Effect, to observers: ObserverList) -> Bool {
        switch effect {
        case .didStart:
            observers.tell { $0.operationDidStart(self) }
        case .didProduce(let operation):
            observers.tell { $0.operation(self, didProduce: operation) }
        case .didCancel(let errors):
            observers.tell { $0.operationDidCancel(self, errors: errors) }
        case .finish(let errors, let wasExecuting, let releasesCategories):
            completeFinishing(
                errors: errors, wasExecuting: wasExecuting, releasesCategories: releasesCategories,
                observers: observers)
            return false
        }
        return true
    }

    /// The `finishing` state: the hook, the observers, then `isFinished` flips last.
    private func completeFinishing(
        errors: [any Error], wasExecuting: Bool, releasesCategories: Bool, observers: ObserverList
    ) {
        finished(errors: errors)
        observers.tell { $0.operationDidFinish(self, errors: errors) }
        // Released before isFinished flips, so that a dependent needing a category waits for no
        // finished operation (S7). On a ConditionalOperationQueue the next holders are told once
        // this operation is done with its thread, whose last steps are short: the first of them
        // then usually starts on this same thread, as on a serial queue, instead of waking another
        // one to run beside this one. Elsewhere they are told at once: Foundation's last step
        // walks every operation its queue holds, and they need not wait for that.
        var grants =
            releasesCategories
            ? ExclusivityController.shared.releaseDeferringGrants(for: ObjectIdentifier(self)) : []
        if !grants.isEmpty, machine.withLock({ $0.owner == nil }) {
            for grant in grants { grant() }
            grants = []
        }
        if wasExecuting { willChange(.isExecuting) }
        willChange(.isFinished)
        var notified = observers.count
        while true {
            switch machine.withLock({ $0.markFinished(notified: notified) }) {
            case .tell(let latecomers):  // added by an observer while finishing
                for observer in latecomers { observer.operationDidFinish(self, errors: errors) }
                notified += latecomers.count
            case .finished(let waiters, let owner, let dropped):
                if wasExecuting { didChange(.isExecuting) }
                FinishAnnouncement.announcing(self) { didChange(.isFinished) }
                owner?.operationFinished(self, errors: errors)
                for waiter in waiters { waiter.run() }
                for grant in grants { grant() }
                withExtendedLifetime(dropped) {}  // the last references go here, unlocked
                return
            }
        }
    }
}
