import Foundation

/// An operation made of other operations, its children: it finishes once every child finished,
/// with all their errors (S11).
///
/// The children run on a queue of the group's own, a ``ConditionalOperationQueue`` kept
/// suspended until the group executes and given the group's `qualityOfService`. Children added
/// before the group executes are handed to it only then; children may also be added while it
/// runs: from a subclass's ``execute()``, from a child, from an observer of a child, or from
/// ``childDidFinish(_:errors:)``. Operations the children produce
/// (``ConditionalOperation/produceOperation(_:)``) and their condition dependencies run on the
/// same queue and are children too.
///
/// ```swift
/// let group = GroupOperation(operations: [download, unzip])
/// unzip.addDependency(download)
/// group.addObserver(BlockObserver(didFinish: { _, errors in print("all done:", errors) }))
/// queue.addOperation(group)
/// ```
///
/// - **Errors**: the group finishes with the errors of every child, in the order the children
///   finished; a nested group passes up those of its own children.
/// - **Cancelling** the group cancels every child: those running, those held back by a dependency
///   or a condition, and every child added afterwards; the group finishes once they all finished
///   (``finishesWhenCancelled`` is `false`, S5). A group that does not execute (cancelled before,
///   or a condition failed) still runs its children, cancelled, and finishes only after each of
///   them finished (S11).
/// - **Mutual exclusivity** (S7): a child may need a category the group holds (through a
///   ``MutuallyExclusive`` condition of the group or of an enclosing group). It then competes for
///   it with its siblings only, while every other operation needing the category waits for the
///   whole group.
/// - **Memory** (S12): a finished group holds neither its children nor its queue.
///
/// A child added once the group finished is cancelled and run on a queue of the library.
///
/// A subclass overriding ``execute()`` adds its children first and then calls `super.execute()`,
/// which starts them.
open class GroupOperation: ConditionalOperation, @unchecked Sendable {
    // mutable state: behind `children`'s lock
    private enum Phase {
        /// The group has not started: children wait in ``Children/waiting``.
        case waiting
        /// The group executes: children run on the queue and are counted.
        case running
        /// The group started without executing (cancelled, a condition failed): its children,
        /// cancelled, run on the queue and are counted, so that each reaches `finished` first (S11).
        case draining
        /// The last child finished: no child is counted any more.
        case finished

        var countsChildren: Bool { self == .running || self == .draining }
    }

    /// The group's own state, under one lock: the count of unfinished children and the errors
    /// they finished with change together, or a last child could finish the group before a
    /// slower one's errors were added.
    private struct Children {
        var phase = Phase.waiting
        var queue: ConditionalOperationQueue?
        /// The delegate of `queue`, which holds it weakly.
        var tracker: GroupChildTracker?
        var waiting: [Foundation.Operation]
        /// The children added to the queue and not finished: a cancel reaches each one itself,
        /// wherever the queue keeps it (S11).
        var added: [ObjectIdentifier: Foundation.Operation] = [:]
        /// Children added to the queue and not finished, plus one while the first ones are added.
        var unfinished = 0
        var errors: [any Error] = []
        /// Every child, and every child added later, is cancelled.
        var isCancelled = false
    }

    private let children: Locked<Children>

    /// Creates a group of `operations`; more can be added with ``addOperation(_:)``.
    public init(operations: [Foundation.Operation] = []) {
        let queue = ConditionalOperationQueue()
        queue.isSuspended = true
        queue.name = "GroupOperation"
        children = Locked(Children(queue: queue, waiting: operations))
        super.init()
        let tracker = GroupChildTracker(group: self)
        queue.delegate = tracker
        children.withLock { $0.tracker = tracker }
        machine.withLock { $0.drainBeforeFinishing() }
        for operation in operations { adopt(operation) }
    }

    // MARK: Children

    /// Adds a child.
    ///
    /// Before the group executes, the child waits for it; while it executes, the child runs at
    /// once (and is cancelled first if the group was cancelled). Once the group finished, the
    /// child is cancelled and run on a queue of the library.
    public func addOperation(_ operation: Foundation.Operation) {
        enum Route {
            case wait
            case run(ConditionalOperationQueue)
            case late
        }
        let (route, cancelled) = children.withLock { children -> (Route, Bool) in
            switch children.phase {
            case .waiting:
                children.waiting.append(operation)
                return (.wait, children.isCancelled)
            case .running, .draining:
                guard let queue = children.queue else { return (.late, true) }
                return (.run(queue), children.isCancelled)
            case .finished:
                return (.late, true)
            }
        }
        switch route {
        case .wait:
            adopt(operation)
            if cancelled { operation.cancel() }
        case .run(let queue):
            if cancelled { operation.cancel() }
            queue.addOperation(operation)
        case .late:
            #if DEBUG
                Diagnostics.log(
                    "\(diagnosticName): a child was added once the group finished; it is cancelled (S11)")
            #endif
            operation.cancel()
            LibraryQueue.shared.addOperation(operation)
        }
    }

    /// Adds every operation of `operations` as a child, in order (see ``addOperation(_:)``).
    public func addOperations(_ operations: [Foundation.Operation]) {
        for operation in operations { addOperation(operation) }
    }

    /// Called when a child finished, with its errors, before the group counts it as finished:
    /// a subclass may add more children here. The default does nothing.
    ///
    /// Called outside every lock of the library, on the thread that finished the child, for
    /// every child the group ran (also the cancelled children of a group that did not execute).
    open func childDidFinish(_ child: Foundation.Operation, errors: [any Error]) {}

    // MARK: Running

    /// Starts the children; the group finishes once every child finished.
    ///
    /// A subclass overriding it adds its children first, then calls `super.execute()`.
    open override func execute() {
        start(.running)
    }

    /// Started without executing: the children are cancelled and run all the same, and the group
    /// finishes once each of them finished (S11).
    override func drain() {
        start(.draining)
    }

    /// `false`: cancelling the group cancels its children, and it finishes once they finished (S5).
    public final override var finishesWhenCancelled: Bool { false }

    /// Cancels the group and every child, including those held back by a dependency or a
    /// condition and those added later (S11).
    open override func cancel() {
        super.cancel()
        guard isCancelled else { return }  // finishing had begun: nothing left to cancel
        let (cancelled, queue) = children.withLock { children -> ([Foundation.Operation], OperationQueue?) in
            guard !children.isCancelled else { return ([], nil) }
            children.isCancelled = true
            return (
                children.waiting + children.added.values, children.phase == .running ? children.queue : nil
            )
        }
        // Suspended meanwhile: a cancelled child finishing at once must not let a dependent that
        // is not cancelled yet start (S11).
        queue?.isSuspended = true
        for child in cancelled { child.cancel() }
        queue?.isSuspended = false
    }

    /// Hands the waiting children to the queue and starts it; `phase` says how the group finishes.
    private func start(_ phase: Phase) {
        guard
            let (queue, initial) = children.withLock({
                children -> (ConditionalOperationQueue, [Foundation.Operation])? in
                guard children.phase == .waiting, let queue = children.queue else { return nil }
                children.phase = phase
                if phase == .draining { children.isCancelled = true }
                children.unfinished = 1  // held until the first children were all added
                defer { children.waiting = [] }
                return (queue, children.waiting)
            })
        else {
            if phase == .draining { finishDraining(errors: []) }
            return
        }
        queue.qualityOfService = qualityOfService
        for child in initial { queue.addOperation(child) }
        queue.isSuspended = false
        countFinished(nil, errors: [])
    }

    // MARK: From the queue

    /// Scopes the exclusivity categories of `child` by this group (S7), from the moment it is
    /// added: a readiness query (a dependency finishing) may admit it before the group executes.
    private func adopt(_ child: Foundation.Operation) {
        guard let conditional = child as? ConditionalOperation else { return }
        _ = conditional.machine.withLock { $0.setExclusivityParent(self) }
    }

    /// The queue is about to add `child`: count it (S11), cancel it if the group was cancelled,
    /// and scope its exclusivity categories (S7).
    func childWillBeAdded(_ child: Foundation.Operation) {
        adopt(child)
        let cancels = children.withLock { children -> Bool in
            guard children.phase.countsChildren else { return true }  // added to a finished group
            children.unfinished += 1
            children.added[ObjectIdentifier(child)] = child
            return children.isCancelled
        }
        if cancels && !child.isCancelled { child.cancel() }
    }

    /// The queue saw `child` finish with `errors`.
    func childFinished(_ child: Foundation.Operation, errors: [any Error]) {
        guard children.withLock({ $0.phase.countsChildren }) else { return }
        childDidFinish(child, errors: errors)
        countFinished(child, errors: errors)
    }

    /// One child (or the start, `nil`) finished; the last one finishes the group.
    private func countFinished(_ child: Foundation.Operation?, errors: [any Error]) {
        let finished = children.withLock { children -> (errors: [any Error], drained: Bool)? in
            guard children.phase.countsChildren else { return nil }
            if let child { children.added[ObjectIdentifier(child)] = nil }
            children.errors.append(contentsOf: errors)
            children.unfinished -= 1
            guard children.unfinished == 0 else { return nil }
            let drained = children.phase == .draining
            children.phase = .finished
            children.queue = nil
            children.tracker = nil
            defer { children.errors = [] }
            return (children.errors, drained)
        }
        guard let finished else { return }
        if finished.drained {
            finishDraining(errors: finished.errors)
        } else {
            finish(errors: finished.errors)
        }
    }
}
