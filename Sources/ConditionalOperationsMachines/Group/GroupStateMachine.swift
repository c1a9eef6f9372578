import Foundation

/// The children of one `GroupOperation` as a value with no side effects (S11). Generic over the
/// queue the children run on, its delegate (`Tracker`) and the operations whose progress the
/// group adopts, so that it reaches nothing of the library but what it is given.
///
/// Kept under the group's own operation lock (`withOwnLock`), the one its operation machine is
/// behind. Each event returns what the group must do once it has released that lock: start the
/// children, cancel them, finish. The count of unfinished children and the errors they finished
/// with change together, under that one lock, or a last child could finish the group before a slower one's
/// errors were added.
package struct GroupStateMachine<Queue: AnyObject, Tracker: AnyObject, Adoptable: Foundation.Operation> {
    /// How a started group ends once its last child finished.
    package enum Ending {
        /// It executed: `finish(errors:)`.
        case finish
        /// It started without executing (cancelled, a condition failed): `finishDraining(errors:)`.
        case finishDraining
    }

    struct Waiting {
        let queue: Queue
        /// The delegate of `queue`, which holds it weakly.
        var tracker: Tracker?
        var children: [Foundation.Operation]
        var isCancelled = false
    }

    package struct Running {
        let queue: Queue
        let tracker: Tracker?
        let ending: Ending
        /// The children added to the queue and not finished: a cancel reaches each one itself,
        /// wherever the queue keeps it.
        var added: [ObjectIdentifier: Foundation.Operation] = [:]
        /// `added.count`, plus one while the first children are being added.
        var unfinished = 1
        var errors: [any Error] = []
        /// Children that finished, for a progress asked for only now.
        var finishedChildren = 0
        /// Every child, and every child added later, is cancelled.
        var isCancelled: Bool
        /// The sections that need the queue suspended whatever ``isSuspended`` says, each until it
        /// ends: the start while it adds the first children, a cancel while it cancels them.
        var queueHolds = 1
        /// Counts the changes of what the queue's suspension should be (``QueueSuspension``).
        var suspensionChanges = 0

        /// Counts `child` until it finished, once, and makes it reachable by a cancel: from the
        /// group's `addOperation(_:)` (before its queue adds it) or from the queue's `willAdd`
        /// (a produced operation, a condition's dependency), whichever comes first.
        mutating func count(_ child: Foundation.Operation) {
            if added.updateValue(child, forKey: ObjectIdentifier(child)) == nil { unfinished += 1 }
        }

        /// Whether the queue should be suspended now, given the group's ``isSuspended``. A
        /// cancelled group runs its children whatever it says: cancelled, they finish without
        /// executing, and the group finishes only after them (S11).
        func suspendsQueue(whileSuspended isSuspended: Bool) -> Bool {
            queueHolds > 0 || (isSuspended && !isCancelled)
        }
    }

    enum State {
        /// The group has not started: its children wait here, on no queue.
        case waiting(Waiting)
        /// The group started: its children run on its queue and are counted.
        case running(Running)
        /// The last child finished: the group let go of its queue and children (S12).
        case finished
        /// Only while an event changes a case's data in place, so that it is not copied.
        case modifying
    }

    private(set) var state: State
    /// The units of the group's progress, once it was asked for (`GroupStateMachine+Progress`).
    var progress: GroupProgressTally?
    /// Every child added, in order (S11): kept for `children` until the group is let go of.
    private(set) var children = ChildList()
    /// What `maxConcurrentChildren` was set to; the queue has it while the group runs.
    package private(set) var maxConcurrentChildren = OperationQueue.defaultMaxConcurrentOperationCount
    /// What `isSuspended` was set to (S30): while it is `true` the running group's queue starts no
    /// child, unless the group was cancelled.
    package private(set) var isSuspended = false

    package init(queue: Queue, children: [Foundation.Operation]) {
        state = .waiting(Waiting(queue: queue, children: children))
        for child in children { self.children.append(child) }
    }

    /// The queue the children run on, while the group has one: `maxConcurrentChildren` goes there.
    package var queue: Queue? {
        switch state {
        case .waiting(let waiting): waiting.queue
        case .running(let running): running.queue
        case .finished, .modifying: nil
        }
    }

    /// The state in words, for tests: `waiting(2, cancelled)`, `running(1, finish)`, `finished`.
    package var stateDescription: String {
        switch state {
        case .waiting(let waiting):
            "waiting(\(waiting.children.count)\(waiting.isCancelled ? ", cancelled" : ""))"
        case .running(let running):
            "running(\(running.unfinished)\(running.isCancelled ? ", cancelled" : ""), \(running.ending))"
        case .finished: "finished"
        case .modifying: "modifying"
        }
    }

    /// Every child added, in order, each once (S11).
    package var allChildren: [Foundation.Operation] { children.all }

    /// Whether the group started: its children run on its queue, or ran.
    package var hasStarted: Bool {
        if case .waiting = state { return false }
        return true
    }

    /// The group's progress, once it was made. Never inlined: Swift 6.3.1, inlining it into the
    /// library's `progressWasMade` in a release build with `-enable-testing`, stops with "Found
    /// outside of lifetime use?!" (the ownership verifier, a compiler bug).
    @inline(never)
    package var madeProgress: Progress? {
        guard let progress else { return nil }
        return progress.progress
    }

    /// `maxConcurrentChildren` was set: the queue to give it to, while the group has one.
    package mutating func setMaxConcurrentChildren(_ limit: Int) -> Queue? {
        maxConcurrentChildren = limit
        return queue
    }

    /// Whether children finishing now are counted.
    package var isRunning: Bool {
        if case .running = state { return true }
        return false
    }

    /// The queue's delegate, kept until the group finished. Set once, right after creation.
    package mutating func track(with tracker: Tracker) {
        guard case .waiting(var waiting) = state else {
            fatalError("GroupStateMachine: track(with:) in state \(state)")
        }
        waiting.tracker = tracker
        state = .waiting(waiting)
    }

    package enum AddAction {
        /// It waits for the group: scope its categories (S7), and cancel it if asked.
        case adopt(cancel: Bool)
        /// Add it to the queue, cancelled first if asked.
        case run(Queue, cancel: Bool)
        /// The group finished: cancel it and run it on the library's queue, so it still finishes.
        case runLate
    }

    /// `addOperation(_:)` was called with `child`.
    package mutating func add(_ child: Foundation.Operation) -> AddAction {
        children.append(child)
        switch state {
        case .waiting(var waiting):
            // Not started: it waits with the others, cancelled if the group was.
            state = .modifying
            waiting.children.append(child)
            state = .waiting(waiting)
            return .adopt(cancel: waiting.isCancelled)
        case .running(var running):
            // Started: it runs at once, counted from now on, so that the last child finishing
            // before the queue adds it cannot finish the group and strand it (S33).
            state = .modifying
            running.count(child)
            state = .running(running)
            return .run(running.queue, cancel: running.isCancelled)
        case .finished:
            // Too late to be waited for: it is cancelled so that it finishes at once.
            return .runLate
        case .modifying:
            fatalError("GroupStateMachine: add in state modifying")
        }
    }

    package enum StartAction {
        /// Give the queue the group's quality of service, add `children`, report ``started()``
        /// and write the suspension it returns, then report ``childFinished(_:errors:)`` with `nil`
        /// for the start itself.
        case start(Queue, children: [Foundation.Operation])
    }

    /// The group executes (`.finish`) or started without executing (`.finishDraining`).
    package mutating func start(_ ending: Ending) -> StartAction {
        switch state {
        case .waiting(let waiting):
            // The waiting children go to the queue; a group that does not execute cancels them.
            state = .running(
                Running(
                    queue: waiting.queue, tracker: waiting.tracker, ending: ending,
                    isCancelled: waiting.isCancelled || ending == .finishDraining))
            return .start(waiting.queue, children: waiting.children)
        case .running, .finished, .modifying:
            fatalError(
                "GroupStateMachine: start(\(ending)) in state \(state): a group starts once (S1)")
        }
    }

    /// The start added the first children to the queue: it no longer holds the queue suspended.
    package mutating func started() -> QueueSuspension? {
        releaseQueueHold(event: "started")
    }

    package enum CancelAction {
        case none
        /// Cancel each of `children`, with the queue suspended meanwhile if `suspending` says so
        /// (write it first; then report ``childrenCancelled()``): a cancelled child finishing at
        /// once must not let a dependent that is not cancelled yet start.
        case cancel([Foundation.Operation], suspending: QueueSuspension?)
    }

    /// The group was cancelled.
    package mutating func cancel() -> CancelAction {
        switch state {
        case .waiting(var waiting):
            // The waiting children are cancelled now; they still run once the group starts.
            guard !waiting.isCancelled else { return .none }
            waiting.isCancelled = true
            state = .waiting(waiting)
            return .cancel(waiting.children, suspending: nil)
        case .running(var running):
            // Every child on the queue, held back or running; later ones are cancelled as added.
            guard !running.isCancelled else { return .none }
            state = .modifying
            running.isCancelled = true
            running.queueHolds += 1
            running.suspensionChanges += 1
            state = .running(running)
            return .cancel(Array(running.added.values), suspending: suspension(of: running))
        case .finished:
            // Every child already finished.
            return .none
        case .modifying:
            fatalError("GroupStateMachine: cancel in state modifying")
        }
    }

    /// The queue is about to add `child`. Returns whether to cancel it.
    package mutating func childWillBeAdded(_ child: Foundation.Operation) -> Bool {
        children.append(child)  // a produced operation or a condition's dependency is a child too
        switch state {
        case .running(var running):
            // Counted until it finished (unless `add` counted it), and reachable by a cancel.
            state = .modifying
            running.count(child)
            state = .running(running)
            return running.isCancelled
        case .waiting, .finished:
            // Not counted: cancelled, so that it finishes at once.
            return true
        case .modifying:
            fatalError("GroupStateMachine: childWillBeAdded in state modifying")
        }
    }

    package enum ChildFinishedAction {
        case none
        /// The last child finished: the group ends this way, with all its children's errors.
        /// `progress` is what the group's progress, if it was made, still has to be told of every
        /// child it counted: write it before the group finishes, whoever else is writing (S31). `released` is what
        /// the group let go of (S12), handed out to be dropped once unlocked: the lock is the
        /// operation's, which a deinit may take.
        case end(Ending, errors: [any Error], progress: GroupProgressTally.Write?, released: Running)
    }

    /// `child` finished with `errors`; `nil` for the start, once the first children were added.
    package mutating func childFinished(_ child: Foundation.Operation?, errors: [any Error])
        -> ChildFinishedAction
    {
        switch state {
        case .running(var running):
            // Counted; the last one ends the group and lets go of its queue.
            state = .modifying
            if let child {
                running.added[ObjectIdentifier(child)] = nil
                running.finishedChildren += 1
            }
            running.errors.append(sharing: errors)
            running.unfinished -= 1
            guard running.unfinished == 0 else {
                state = .running(running)
                return .none
            }
            state = .finished
            // A writer may still be writing older counts, and would stop here without the rest.
            let finalWrite = progress?.finalWrite()
            progress = nil  // S12
            return .end(running.ending, errors: running.errors, progress: finalWrite, released: running)
        case .waiting, .finished:
            // Not counted (a child that was cancelled and run on the library's queue).
            return .none
        case .modifying:
            fatalError("GroupStateMachine: childFinished in state modifying")
        }
    }

    // MARK: Suspension (S30)

    /// What the group's queue's `isSuspended` should be set to, as the machine's `change`-th
    /// change of it left it. The writes of two threads may land in either order, so each writer
    /// asks ``queueSuspension(after:)`` once it wrote: the last write is then the latest wish.
    package struct QueueSuspension {
        package let queue: Queue
        package let isSuspended: Bool
        package let change: Int
    }

    /// `isSuspended` was set. The queue follows once the group runs; a waiting group's queue stays
    /// suspended until the group starts.
    package mutating func setSuspended(_ suspended: Bool) -> QueueSuspension? {
        isSuspended = suspended
        switch state {
        case .running(var running):
            state = .modifying
            running.suspensionChanges += 1
            state = .running(running)
            return suspension(of: running)
        case .waiting, .finished:
            return nil
        case .modifying:
            fatalError("GroupStateMachine: setSuspended in state modifying")
        }
    }

    /// The cancel of a running group reached every child: it no longer holds the queue suspended.
    package mutating func childrenCancelled() -> QueueSuspension? {
        releaseQueueHold(event: "childrenCancelled")
    }

    /// What to write if the suspension changed since the `change`-th change; `nil` if it did not,
    /// or if the group let go of its queue.
    package func queueSuspension(after change: Int) -> QueueSuspension? {
        guard case .running(let running) = state, running.suspensionChanges != change else { return nil }
        return suspension(of: running)
    }

    private func suspension(of running: Running) -> QueueSuspension {
        QueueSuspension(
            queue: running.queue, isSuspended: running.suspendsQueue(whileSuspended: isSuspended),
            change: running.suspensionChanges)
    }

    /// One section that held the queue suspended ended. The group may have finished meanwhile
    /// (every child was already executing): its queue is let go of, and there is nothing to write.
    private mutating func releaseQueueHold(event: String) -> QueueSuspension? {
        switch state {
        case .running(var running):
            state = .modifying
            running.queueHolds -= 1
            running.suspensionChanges += 1
            state = .running(running)
            return suspension(of: running)
        case .finished:
            return nil
        case .waiting, .modifying:
            fatalError("GroupStateMachine: \(event) in state \(state): nothing held the queue")
        }
    }
}
