import ConditionalOperationsMachines
import Dispatch
import Foundation

/// How a ``ConditionalOperationQueue`` runs its ready operations: on Dispatch, as its machine (`QueueStateMachine`)
/// allows, instead of through Foundation's scheduler, which costs several times as much per
/// operation and, on Linux, walks every operation it holds on each pass.
extension ConditionalOperationQueue {
    func retarget() {
        let target = super.underlyingQueue ?? .global(qos: super.qualityOfService.dispatchQoSClass)
        storage.retarget(target)
    }

    /// Ready operations: they run now, or once the scheduler has a slot for them. A lone one
    /// comes as `CollectionOfOne`: no array is allocated for it.
    func submit(_ operations: some Collection<Foundation.Operation>) {
        // A program adding operations, not one finishing inside a drainer's `start()`.
        let fromOutside = RunningQueue.current !== self
        let (all, drainer) = storage.submitAll(operations, fromOutside: fromOutside)
        if all { return startDrainer(on: drainer) }
        let prioritized = operations.map { ($0, $0.queuePriority) }
        startDrainer(on: storage.submit(prioritized, fromOutside: fromOutside))
        // A priority changed meanwhile found the operation in no line (``reprioritize(_:)``).
        for (operation, priority) in prioritized where operation.queuePriority != priority {
            reprioritize(operation)
        }
    }

    /// A lone ready operation.
    func submit(_ operation: Foundation.Operation) {
        submit(CollectionOfOne(operation))
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
        startDrainer(on: storage.slotFreed())
    }

    /// Starts `drainer`, if the operations handed out need one (the storage's answer).
    func startDrainer(on drainer: QueueStateMachine.Drainer?) {
        guard let drainer else { return }
        let first = drainer.first
        drainer.target.async { self.drain(drainer.target, first: first) }
    }

    /// One Dispatch work item on `target` starting the operations handed out, one after another,
    /// `first` first, until none is left (`QueueStateMachine.handOut(_:)`) or the queue's target
    /// changed.
    ///
    /// The queue is `current` on its thread for all of them (they are all this queue's). One that
    /// finishes within its `start()` reports it with the trip fetching the next one; where the
    /// queue has a delegate to tell, the next one goes to a drainer of its own and this one ends.
    private func drain(_ target: DispatchQueue, first: Foundation.Operation?) {
        var turn = RunningQueue.Turn(self)
        withUnsafeMutablePointer(to: &turn) { turn in
            let outer = RunningQueue.enter(turn)
            defer { RunningQueue.leave(restoring: outer) }
            var next =
                first.map { (operation: Optional($0), another: DispatchQueue?.none) }
                ?? storage.nextToStart(isBack: false, on: target)
            while true {
                if let another = next.another {
                    startDrainer(on: QueueStateMachine.Drainer(target: another, first: nil))
                }
                guard let operation = next.operation else { return }
                turn.pointee.starting = ObjectIdentifier(operation)
                start(operation)
                turn.pointee.starting = nil
                guard let finish = turn.pointee.finish else {
                    next = storage.nextToStart(isBack: true, on: target)
                    continue
                }
                turn.pointee.finish = nil
                let finished = storage.finishedWithinStart(operation, heldASlot: finish.heldASlot, on: target)
                next = (finished.next, finished.another)
                if let delegate = finished.delegate {
                    // The next ones go to drainers of their own first, as when an operation
                    // finishes elsewhere: a delegate that blocks (waiting for the main thread,
                    // which waits for one of them) must not hold back their start.
                    if let another = next.another {
                        startDrainer(on: QueueStateMachine.Drainer(target: another, first: nil))
                    }
                    if let operation = next.operation {
                        startDrainer(on: QueueStateMachine.Drainer(target: target, first: operation))
                    }
                    next = (nil, nil)
                    delegate.operationQueue(self, operationDidFinish: operation, errors: finish.errors)
                }
                if finished.known { idle.leave() }
            }
        }
    }

    private func start(_ operation: Foundation.Operation) {
        guard operation is ConditionalOperation else { return startPlain(operation) }
        // A `ConditionalOperation` tells its queue itself when it finished (`operationFinished`).
        operation.start()
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
            let (drainer, route) = storage.startDeclined(operation, facts: facts)
            startDrainer(on: drainer)
            if perform(route, for: operation, dependencies: dependencies) { submit(operation) }
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
        operation.start()
        if operation.isFinished { finished() }
    }

    /// An operation of this queue finished: the registry forgets it, its slot goes to the next
    /// one (unless Foundation ran it: `heldASlot` is then `false`), the delegate hears it.
    func operationFinished(_ operation: Foundation.Operation, errors: [any Error], heldASlot: Bool = true) {
        if let turn = RunningQueue.turn, turn.pointee.starting == ObjectIdentifier(operation),
            turn.pointee.queue.takeUnretainedValue() === self
        {
            // Finished within the `start()` this thread's drainer called: reported with its next trip.
            turn.pointee.finish = (errors, heldASlot)
            return
        }
        let finished = storage.finished(operation, heldASlot: heldASlot)
        startDrainer(on: finished.drainer)
        finished.delegate?.operationQueue(self, operationDidFinish: operation, errors: errors)
        if finished.known { idle.leave() }
    }
}
