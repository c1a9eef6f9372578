import Dispatch
import Foundation

/// How a ``ConditionalOperationQueue`` runs its ready operations: on Dispatch, as its ``Scheduler``
/// allows, instead of through Foundation's scheduler, which costs several times as much per
/// operation and, on Linux, walks every operation it holds on each pass.
extension ConditionalOperationQueue {
    func retarget() {
        let target = super.underlyingQueue ?? .global(qos: super.qualityOfService.dispatchQoSClass)
        registry.withLock { $0.target = target }
    }

    /// Ready operations: they run now, or once the scheduler has a slot for them.
    func submit(_ operations: [Foundation.Operation]) {
        var target: DispatchQueue?
        let all = registry.withLock { registry in
            target = registry.target
            return registry.scheduler.submitAll(count: operations.count)
        }
        if all { return run(operations, on: target) }
        let prioritized = operations.map { ($0, $0.queuePriority) }
        run(registry.withLock { $0.scheduler.submit(prioritized) }, on: target)
        // A priority changed meanwhile found the operation in no line (``reprioritize(_:)``).
        for (operation, priority) in prioritized where operation.queuePriority != priority {
            reprioritize(operation)
        }
    }

    /// `operation`'s `queuePriority` changed: if it waits for a slot, it moves to the line of its
    /// new priority, at the end, as on Foundation's queue.
    func reprioritize(_ operation: Foundation.Operation) {
        let priority = operation.queuePriority  // read unlocked: it may be overridden
        registry.withLock { $0.scheduler.reprioritize(operation, to: priority) }
    }

    /// A `ConditionalOperation` declined the start the scheduler gave it (a dependency added once
    /// it was ready has not finished, S9): its slot goes to the next one; it is handed over again.
    func startDeclined() {
        run(registry.withLock { $0.scheduler.finished() })
    }

    func run(_ operations: [Foundation.Operation], on target: DispatchQueue? = nil) {
        guard !operations.isEmpty else { return }
        let target = target ?? registry.withLock { $0.target }
        for operation in operations {
            target.async { self.start(operation) }
        }
    }

    private func start(_ operation: Foundation.Operation) {
        guard operation is ConditionalOperation else { return startPlain(operation) }
        // A `ConditionalOperation` tells its queue itself when it finished (`operationFinished`).
        let outer = RunningQueue.enter(self)
        operation.start()
        RunningQueue.leave(restoring: outer)
    }

    private func startPlain(_ operation: Foundation.Operation) {
        guard operation.isReady || operation.isCancelled else {
            // A dependency added since it was submitted: Foundation's `start()` would trap.
            run(registry.withLock { $0.scheduler.finished() })
            let dependencies = operation.dependencies.filter { !$0.isFinished }
            if admitPlain(operation, dependencies: dependencies) { submit([operation]) }
            return
        }
        // Watched before it starts: an asynchronous one may finish on another thread at any time.
        // One that finished without telling (no KVO `isFinished`) is reported once `start()`
        // returned, as Foundation's own queue checks.
        let isUnreported = Locked(true)
        let finished: @Sendable () -> Void = { [self] in
            if isUnreported.clear() { operationFinished(operation, errors: []) }
        }
        FinishWatcher(watching: operation, onFinish: finished)
        let outer = RunningQueue.enter(self)
        operation.start()
        RunningQueue.leave(restoring: outer)
        if operation.isFinished { finished() }
    }

    /// An operation of this queue finished: the registry forgets it, its slot goes to the next
    /// one (unless Foundation ran it: `heldASlot` is then `false`), the delegate hears it.
    func operationFinished(_ operation: Foundation.Operation, errors: [any Error], heldASlot: Bool = true) {
        var target: DispatchQueue?
        let (finished, runnable) = registry.withLock { registry in
            target = registry.target
            return (registry.finished(operation), heldASlot ? registry.scheduler.finished() : [])
        }
        run(runnable, on: target)
        finished.delegate?.operationQueue(self, operationDidFinish: operation, errors: errors)
        if finished.known { idle.leave() }
    }

    // MARK: Plain operations

    /// Takes in a plain operation with unfinished `dependencies` (none: it may be ready now);
    /// returns whether it is ready now (the caller submits it).
    ///
    /// Foundation tells nobody but its own queue when a plain operation's `isReady` changes, as a
    /// cancel does. Without a concurrency limit to share, Foundation's scheduler runs one that
    /// must wait; with one, it is submitted once its dependencies finished (a cancel meanwhile is
    /// noticed then, or by `cancelAllOperations()`).
    func admitPlain(_ operation: Foundation.Operation, dependencies: [Foundation.Operation]) -> Bool {
        // A cancelled one starts at once and finishes, as on Foundation's queue.
        if operation.isCancelled || dependencies.isEmpty && operation.isReady { return true }
        let limit = registry.withLock { $0.scheduler.limit }
        if limit == OperationQueue.defaultMaxConcurrentOperationCount || dependencies.isEmpty {
            handToFoundation(operation)
        } else {
            submitOnceDependenciesFinished(operation, dependencies)
        }
        return false
    }

    private func handToFoundation(_ operation: Foundation.Operation) {
        FinishWatcher(watching: operation) { [self] in
            operationFinished(operation, errors: [], heldASlot: false)
        }
        super.addOperation(operation)
    }

    private func submitOnceDependenciesFinished(
        _ operation: Foundation.Operation, _ dependencies: [Foundation.Operation]
    ) {
        registry.withLock { $0.waitingPlain[ObjectIdentifier(operation)] = operation }
        let remaining = Locked(dependencies.count)
        for dependency in dependencies {
            FinishWatcher(watching: dependency) { [self] in
                let isLast = remaining.withLock { count in
                    count -= 1
                    return count == 0
                }
                guard isLast else { return }
                let unfinished = operation.dependencies.filter { !$0.isFinished }
                if !unfinished.isEmpty, !operation.isCancelled {
                    submitOnceDependenciesFinished(operation, unfinished)
                    return
                }
                // Unless `cancelAllOperations()` submitted it meanwhile.
                guard
                    registry.withLock({ $0.waitingPlain.removeValue(forKey: ObjectIdentifier(operation)) })
                        != nil
                else { return }
                if operation.isReady || operation.isCancelled {
                    submit([operation])
                } else {
                    handToFoundation(operation)  // its own `isReady` says no: Foundation will hear
                }
            }
        }
    }

    /// Plain operations waiting for their dependencies that were cancelled: they run now, and
    /// finish at once, as on Foundation's queue.
    func submitCancelledPlainOperations() {
        // `isCancelled` may be overridden: read outside the lock.
        let cancelled = registry.withLock { Array($0.waitingPlain.values) }.filter(\.isCancelled)
        let taken = registry.withLock { registry in
            cancelled.filter { registry.waitingPlain.removeValue(forKey: ObjectIdentifier($0)) != nil }
        }
        if !taken.isEmpty { submit(taken) }
    }
}
