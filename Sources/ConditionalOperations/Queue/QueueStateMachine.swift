import Foundation

/// A ``ConditionalOperationQueue``'s own bookkeeping as a value: what adding an operation
/// involves, where a plain operation goes, its concurrency limit, suspension and shutdown, its
/// barriers, and which ready operations run now (``Scheduler``).
///
/// Each event is a mutating function returning what the queue does next, outside its lock; the
/// queue's ``QueueStorage`` alone applies the events under that lock. The dependency graph is
/// ``QueueRegistry``'s.
struct QueueStateMachine {
    /// Whether ``ConditionalOperationQueue/shutdown(gracePeriod:)`` was called (S21).
    enum Life: Equatable, CustomStringConvertible {
        case open
        case shutDown

        var description: String { self == .open ? "open" : "shut down" }
    }

    private(set) var life = Life.open
    /// Held weakly, read with the rest in one lock.
    private(set) weak var delegate: (any ConditionalOperationQueueDelegate)?

    /// ``delegate``, read in place: read as the property through an `inout` state, it copied the
    /// whole machine (each reference it holds retained and released) for every operation finished.
    func currentDelegate() -> (any ConditionalOperationQueueDelegate)? { delegate }
    /// Barrier operations not yet finished: every operation added after one depends on it.
    private(set) var barriers: [Foundation.Operation] = []
    /// Where the queue's ``OperationLogger`` receives its operations' records, if it has one.
    private(set) var logChannel: LogChannel?
    /// Which of its ready operations run now.
    private(set) var scheduler = Scheduler()
    /// Where they run: the queue's `underlyingQueue`, else the global queue of its quality of service.
    private(set) var target = DispatchQueue.global()
    /// Plain operations waiting for their dependencies to finish before they are submitted (on a
    /// queue with a concurrency limit).
    private(set) var waitingPlain: [ObjectIdentifier: Foundation.Operation] = [:]

    var isShutDown: Bool { life == .shutDown }

    // MARK: Admission

    /// What adding an operation involves besides registering it.
    struct Preparation {
        let delegate: (any ConditionalOperationQueueDelegate)?
        let barriers: [Foundation.Operation]
        let logChannel: LogChannel?
        let isShutDown: Bool
    }

    enum AdmitAction {
        /// Nothing to involve (no delegate, barrier, logger or shutdown): register it now, in
        /// this trip.
        case register
        /// Tell the delegate, add the barriers and the logger, cancel it if shut down, all outside
        /// the lock; then register it.
        case prepare(Preparation)
    }

    /// An operation is being added.
    mutating func admit() -> AdmitAction {
        guard barriers.isEmpty, logChannel == nil, life == .open, delegate == nil else {
            return .prepare(
                Preparation(
                    delegate: delegate, barriers: barriers, logChannel: logChannel, isShutDown: isShutDown))
        }
        return .register
    }

    // MARK: Plain operations

    /// What a plain operation's own state says, read outside the lock (it may be overridden).
    struct PlainFacts: Equatable {
        var isCancelled: Bool
        var isReady: Bool
        /// Some of its dependencies are unfinished.
        var awaitsDependencies: Bool
    }

    /// Where a plain operation goes.
    ///
    /// Foundation tells nobody but its own queue when a plain operation's `isReady` changes, as a
    /// cancel does. Without a concurrency limit to share, Foundation's scheduler runs one that
    /// must wait; with one, it is submitted once its dependencies finished (a cancel meanwhile is
    /// noticed then, or by `cancelAllOperations()`), and waits for a slot as every operation does.
    /// Given one, if its own `isReady` still says no (Foundation counts the last dependency's
    /// finish after the queue heard of it, or the operation overrides `isReady`), Foundation's
    /// scheduler runs it and the slot stays its own until it finished: the limit holds.
    enum PlainRoute: Equatable {
        /// Ready, or cancelled (it starts at once and finishes, as on Foundation's queue): submit it.
        case submit
        /// Foundation's scheduler runs it; the queue watches it finish.
        case handToFoundation
        /// It waits in ``waitingPlain`` for its dependencies (the queue watches them), then comes
        /// back with ``plainDependenciesFinished(_:facts:)``.
        case awaitDependencies
        /// `cancelAllOperations()` or a shutdown submitted it meanwhile: nothing to do.
        case none
    }

    /// A plain operation is added, or was started while a dependency added since it was submitted
    /// has not finished.
    mutating func routePlain(_ operation: Foundation.Operation, facts: PlainFacts) -> PlainRoute {
        if facts.isCancelled || !facts.awaitsDependencies && facts.isReady { return .submit }
        // No limit to share: Foundation's scheduler hears its readiness change.
        guard scheduler.limit != OperationQueue.defaultMaxConcurrentOperationCount else {
            return .handToFoundation
        }
        // A slot first, then Foundation's scheduler (see ``PlainRoute``).
        guard facts.awaitsDependencies else { return .submit }
        waitingPlain[ObjectIdentifier(operation)] = operation
        return .awaitDependencies
    }

    /// The dependencies a plain operation in ``waitingPlain`` waited for finished.
    mutating func plainDependenciesFinished(_ operation: Foundation.Operation, facts: PlainFacts)
        -> PlainRoute
    {
        if facts.awaitsDependencies, !facts.isCancelled {
            // Dependencies added meanwhile: it waits for them too.
            waitingPlain[ObjectIdentifier(operation)] = operation
            return .awaitDependencies
        }
        guard waitingPlain.removeValue(forKey: ObjectIdentifier(operation)) != nil else { return .none }
        // Its own `isReady` may say no still: it waits for a slot all the same (see ``PlainRoute``).
        return .submit
    }

    /// Those of `cancelled` (plain operations that waited for their dependencies) still waiting:
    /// the queue submits them, and they finish at once, as on Foundation's queue.
    mutating func takeCancelledPlain(_ cancelled: [Foundation.Operation]) -> [Foundation.Operation] {
        cancelled.filter { waitingPlain.removeValue(forKey: ObjectIdentifier($0)) != nil }
    }

    // MARK: Running

    mutating func setLimit(_ limit: Int) -> [Foundation.Operation] {
        scheduler.setLimit(limit)
    }

    mutating func setSuspended(_ suspended: Bool) -> [Foundation.Operation] {
        scheduler.setSuspended(suspended)
    }

    mutating func retarget(_ newTarget: DispatchQueue) {
        target = newTarget
    }

    /// Ready operations, when no limit or suspension holds any back and none waits: `true`, they
    /// all run now; otherwise nothing changes.
    mutating func submitAll(count: Int) -> Bool {
        scheduler.submitAll(count: count)
    }

    /// Ready operations with their `queuePriority`: those to run now.
    mutating func submit(_ operations: [(Foundation.Operation, Foundation.Operation.QueuePriority)])
        -> [Foundation.Operation]
    {
        scheduler.submit(operations)
    }

    mutating func reprioritize(
        _ operation: Foundation.Operation, to priority: Foundation.Operation.QueuePriority
    ) {
        scheduler.reprioritize(operation, to: priority)
    }

    /// An operation handed out finished, or declined its start: the ones to run in its place.
    mutating func slotFreed() -> [Foundation.Operation] {
        scheduler.finished()
    }

    /// Operations to run join the line of those to start (``Scheduler/handOut(_:)``): returns
    /// the drainer to start on ``target`` for them, if one is needed.
    mutating func handOut(_ operations: some Collection<Foundation.Operation>) -> Drainer? {
        let (needsDrainer, first) = scheduler.handOut(operations)
        return needsDrainer ? Drainer(target: target, first: first) : nil
    }

    /// An operation a drainer on `drainerTarget` started finished within its `start()`: its slot
    /// (if `heldASlot`) goes to the next ones, and the drainer takes the next one to start
    /// (``Scheduler/handOutAndTakeNext(_:isRetargeted:)``).
    mutating func finishedWithinStart(heldASlot: Bool, on drainerTarget: DispatchQueue) -> (
        operation: Foundation.Operation?, another: DispatchQueue?
    ) {
        let next = scheduler.handOutAndTakeNext(
            heldASlot ? scheduler.finished() : [], isRetargeted: target !== drainerTarget)
        return (next.operation, next.needsDrainer ? target : nil)
    }

    /// A drainer to start: its Dispatch queue, and the operation it starts first, if it takes one.
    struct Drainer {
        let target: DispatchQueue
        let first: Foundation.Operation?
    }

    /// A drainer on `drainerTarget` asks for the next operation to start (``Scheduler/nextToStart(isBack:isRetargeted:)``);
    /// `another`: the target to start another drainer on.
    mutating func nextToStart(isBack: Bool, on drainerTarget: DispatchQueue) -> (
        operation: Foundation.Operation?, another: DispatchQueue?
    ) {
        let next = scheduler.nextToStart(isBack: isBack, isRetargeted: target !== drainerTarget)
        return (next.operation, next.needsDrainer ? target : nil)
    }

    // MARK: Configuration and life

    mutating func setDelegate(_ newDelegate: (any ConditionalOperationQueueDelegate)?) {
        delegate = newDelegate
    }

    /// Returns the channel replaced, to be let go of outside the lock (the user's logger may go
    /// with it).
    mutating func setLogChannel(_ channel: LogChannel?) -> LogChannel? {
        defer { logChannel = channel }
        return logChannel
    }

    enum ShutdownAction: Equatable {
        /// The first call: the caller runs the shutdown.
        case begin
        /// Shut down already: the first call's grace period holds.
        case none
    }

    mutating func shutDown() -> ShutdownAction {
        switch life {
        case .open:
            life = .shutDown
            return .begin
        case .shutDown:
            return .none
        }
    }

    mutating func addBarrier(_ barrier: Foundation.Operation) {
        barriers.append(barrier)
    }

    /// A barrier finished. It was added with ``addBarrier(_:)`` and finishes once: a barrier not
    /// held is impossible.
    mutating func barrierFinished(_ barrier: Foundation.Operation) {
        guard let index = barriers.firstIndex(where: { $0 === barrier }) else {
            fatalError("QueueStateMachine: barrierFinished in state \(life): a barrier it does not hold")
        }
        barriers.remove(at: index)
    }
}
