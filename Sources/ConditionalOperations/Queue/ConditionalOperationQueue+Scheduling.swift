import Dispatch
import Foundation

/// How a ``ConditionalOperationQueue`` runs its ready operations: on Dispatch, as its ``Scheduler``
/// allows, instead of through Foundation's scheduler, which costs several times as much per
/// operation and, on Linux, walks every operation it holds on each pass.
extension ConditionalOperationQueue {
    func retarget() {
        let target = super.underlyingQueue ?? .global(qos: super.qualityOfService.dispatchQoSClass)
        storage.retarget(target)
    }

    /// Ready operations: they run now, or once the scheduler has a slot for them.
    func submit(_ operations: [Foundation.Operation]) {
        let (all, target) = storage.submitAll(count: operations.count)
        if all { return run(operations, on: target) }
        let prioritized = operations.map { ($0, $0.queuePriority) }
        run(storage.submit(prioritized), on: target)
        // A priority changed meanwhile found the operation in no line (``reprioritize(_:)``).
        for (operation, priority) in prioritized where operation.queuePriority != priority {
            reprioritize(operation)
        }
    }

    /// `operation`'s `queuePriority` changed: if it waits for a slot, it moves to the line of its
    /// new priority, at the end, as on Foundation's queue.
    func reprioritize(_ operation: Foundation.Operation) {
        let priority = operation.queuePriority  // read unlocked: it may be overridden
        storage.reprioritize(operation, to: priority)
    }

    /// A `ConditionalOperation` declined the start the scheduler gave it (a dependency added once
    /// it was ready has not finished, S9): its slot goes to the next one; it is handed over again.
    func startDeclined() {
        run(storage.slotFreed())
    }

    func run(_ operations: [Foundation.Operation], on target: DispatchQueue? = nil) {
        guard !operations.isEmpty else { return }
        let target = target ?? storage.target
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
            let dependencies = operation.dependencies.filter { !$0.isFinished }
            // Every dependency finished, yet its `isReady` says no: Foundation is still counting
            // the last finish, or the operation has readiness of its own. Foundation's scheduler
            // runs it once it says yes; the slot stays its own until then.
            if dependencies.isEmpty { return handToFoundation(operation, holdingASlot: true) }
            // A dependency added since it was submitted: Foundation's `start()` would trap.
            let facts = Self.plainFacts(of: operation, awaitsDependencies: !dependencies.isEmpty)
            let (runnable, route) = storage.startDeclined(operation, facts: facts)
            run(runnable)
            if perform(route, for: operation, dependencies: dependencies) { submit([operation]) }
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
        let finished = storage.finished(operation, heldASlot: heldASlot)
        run(finished.runnable, on: finished.target)
        finished.delegate?.operationQueue(self, operationDidFinish: operation, errors: errors)
        if finished.known { idle.leave() }
    }
}
