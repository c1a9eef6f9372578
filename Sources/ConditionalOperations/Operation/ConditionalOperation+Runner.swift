import Dispatch
import Foundation

/// The runner: the one place that runs what the state machine's actions ask for (conditions,
/// observers, KVO, `execute()`), always outside the operation's lock.
extension ConditionalOperation {
    typealias Followup = OperationStateMachine.Followup
    typealias ReadinessAction = OperationStateMachine.ReadinessAction
    typealias Context = OperationStateMachine.Context

    /// Takes the steps towards readiness `action` hands out, then performs the followups.
    /// Returns whether the operation is ready.
    func settle(_ action: ReadinessAction, context: Context) -> Bool {
        let (isReady, followup) = advance(action, context: context)
        perform(followup)
        return isReady
    }

    /// The steps of ``settle(_:context:)``: condition dependencies, evaluation, categories, each
    /// reported with its event, until an answer comes. Returns the followups instead of
    /// performing them.
    func advance(_ action: ReadinessAction, context: Context) -> (isReady: Bool, followup: Followup) {
        var action = action
        while true {
            switch action {
            case .answer(let isReady, let followup):
                return (isReady, followup)
            case .readDependencies(let stage):
                let dependenciesFinished = self.dependenciesFinished
                action = machine.withLock {
                    $0.queryReadiness(
                        dependenciesFinished: dependenciesFinished, stage: stage, context: context)
                }
            case .registerDependencies(let dependencies):
                for dependency in dependencies { super.addDependency(dependency) }
                action = machine.withLock { $0.dependenciesRegistered(context: context) }
            case .askConditionDependencies(let conditions):
                let any = addDependencies(of: conditions)
                action = machine.withLock { $0.conditionDependenciesAdded(any: any) }
            case .evaluate(let conditions):
                evaluate(conditions)
                action = machine.withLock { $0.endInlineEvaluation(context: context) }
            case .acquire(let categories, let parent):
                // S7 in groups: a category an enclosing group holds is requested in its scope.
                let requested = ExclusivityController.scoped(categories, under: parent)
                let isGranted = ExclusivityController.shared.acquire(
                    requested, for: ObjectIdentifier(self), operation: self
                ) {
                    _ = self.settle(self.machine.withLock { $0.categoriesGranted() }, context: .callback)
                }
                action = machine.withLock { $0.endInlineAcquisition(isGranted: isGranted, context: context) }
            }
        }
    }

    func perform(_ followup: Followup) {
        guard !followup.isEmpty else { return }
        if followup.contains(.releaseCategories) {
            ExclusivityController.shared.release(for: ObjectIdentifier(self))
        }
        followup.queue?.handOver(self)
        if followup.contains(.announceReady) { announceReadiness() }
        if followup.contains(.deliver) { deliverEffects() }
        if followup.contains(.announceStart) { announceStart() }
        if followup.contains(.drain) { drain() }
        if followup.contains(.launchLater) {
            DispatchQueue.global(qos: dispatchQoS).async {
                self.perform(self.machine.withLock { $0.launchDeferred() })
            }
        }
        if followup.contains(.reannounceLater) {
            // Later, not at once: by then the queue has most likely started it, and a plain
            // queue's every announcement is a scheduling pass over all it holds.
            let due = DispatchTime.now() + ReadinessAnnouncements.reannouncementDelay
            DispatchQueue.global(qos: dispatchQoS).asyncAfter(deadline: due) { self.reannounce() }
        }
        if followup.contains(.reannounceNow) {
            DispatchQueue.global(qos: dispatchQoS).async { self.reannounce() }
        }
        if followup.contains(.executeNow) { execute() }
    }

    /// A re-announcement asked for earlier, unless the operation no longer waits for its start.
    private func reannounce() {
        if machine.withLock({ $0.reannouncementDue() }) { announceReadiness() }
    }

    /// Asks every condition at once; each answers through its completion, now or later.
    private func evaluate(_ conditions: [any OperationCondition]) {
        for (index, condition) in conditions.enumerated() {
            condition.evaluate(for: self) { result in
                let action = self.machine.withLock { $0.conditionEvaluated(at: index, result) }
                let readiness = action.readiness
                // The conditions go here, unlocked, before the operation can run and finish: a
                // finished operation leaves nothing of them alive (S2, S12).
                _ = consume action
                _ = self.settle(readiness, context: .callback)
            }
        }
    }

    /// Makes each condition's dependency (S3) a dependency of this operation and runs it: on the
    /// queue that started this operation, or else on the library's queue (never dropped).
    /// Returns whether there was any.
    private func addDependencies(of conditions: [any OperationCondition]) -> Bool {
        let added = conditions.dependencies(for: self)
        guard !added.isEmpty else { return false }
        for dependency in added { addDependency(dependency) }
        let queue = machine.withLock { $0.owner } ?? LibraryQueue.shared
        for dependency in added { queue.addOperation(dependency) }
        return true
    }

    /// Posts KVO `isReady`, again while a queue may have stored a stale answer meanwhile. A first
    /// announcement changes the answer between `willChangeValue` and `didChangeValue`.
    private func announceReadiness() {
        repeat {
            willChange(.isReady)
            machine.withLock { $0.announcementBegan() }
            didChange(.isReady)
        } while machine.withLock { $0.announcementEnded() }
    }

    /// Posts KVO `isExecuting` around the change, tells observers `operationDidStart`, then goes
    /// on delivering (``OperationStateMachine/Followup/announceStart``).
    private func announceStart() {
        willChange(.isExecuting)
        let observers = machine.withLock { $0.startAnnounced() }
        didChange(.isExecuting)
        deliver(first: .didStart, to: observers)
    }

    /// Delivers queued effects, one at a time, until none is left or `execute()` is due.
    private func deliverEffects() {
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
    func deliver(first effect: OperationStateMachine.Effect, to observers: ObserverList) {
        if deliver(effect, to: observers) { deliverEffects() }
    }

    /// Delivers one effect; returns `false` after the last one (finishing: nothing follows, S1).
    private func deliver(_ effect: OperationStateMachine.Effect, to observers: ObserverList) -> Bool {
        switch effect {
        case .didStart:
            for observer in observers { observer.operationDidStart(self) }
        case .didProduce(let operation):
            for observer in observers { observer.operation(self, didProduce: operation) }
        case .didCancel(let errors):
            for observer in observers { observer.operationDidCancel(self, errors: errors) }
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
        for observer in observers { observer.operationDidFinish(self, errors: errors) }
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
                didChange(.isFinished)
                owner?.operationFinished(self, errors: errors)
                for waiter in waiters { waiter() }
                for grant in grants { grant() }
                withExtendedLifetime(dropped) {}  // the last references go here, unlocked
                return
            }
        }
    }

    private var dispatchQoS: DispatchQoS.QoSClass { qualityOfService.dispatchQoSClass }
}
