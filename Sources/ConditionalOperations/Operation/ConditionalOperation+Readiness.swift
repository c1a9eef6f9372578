import Foundation

/// The runner's steps towards readiness: what a ``OperationStateMachine/ReadinessAction`` asks
/// (Foundation's dependencies, the conditions' own dependencies, the conditions, the exclusivity
/// categories), each reported to the machine with its event, and the KVO `isReady` announcements.
/// Outside the operation's lock, always.
extension ConditionalOperation {
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
                let acquisition = ExclusivityController.shared.acquire(
                    requested, for: ObjectIdentifier(self), operation: self
                ) {
                    _ = self.settle(self.machine.withLock { $0.categoriesGranted() }, context: .callback)
                }
                action = machine.withLock { $0.endInlineAcquisition(acquisition, context: context) }
            }
        }
    }

    /// A re-announcement asked for earlier, unless the operation no longer waits for its start.
    func reannounce() {
        if machine.withLock({ $0.reannouncementDue() }) { announceReadiness() }
    }

    /// The look asked for earlier (``ReadinessLooks``): announces readiness again, on a Dispatch
    /// work item of its own, if the operation still waits for its start and its look may not stay
    /// silent.
    func reannounceIfDue() {
        guard machine.withLock({ $0.reannouncementDue() }) else { return }
        DispatchQueue.global(qos: dispatchQoS).async { self.announceReadiness() }
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
    func announceReadiness() {
        repeat {
            willChange(.isReady)
            machine.withLock { $0.announcementBegan() }
            didChange(.isReady)
        } while machine.withLock { $0.announcementEnded() }
    }
}
