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
/// - **Cancelling** the group cancels every child, and every child added afterwards; the group
///   finishes once they all finished (``finishesWhenCancelled`` is `false`, S5). A group cancelled
///   before it executes finishes without executing, as any operation (S4); its children are
///   cancelled and still run, so that each reaches `finished`.
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
open class GroupOperation: ConditionalOperation, @unchecked Sendable {  // mutable state: behind `children`'s lock
    private enum Phase {
        /// The group has not executed: children wait in ``Children/waiting``.
        case waiting
        /// The group executes: children run on the queue and are counted.
        case running
        /// The group finished or is finishing: no child is counted any more.
        case finished
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
        /// Children added to the queue and not finished, plus one while ``execute()`` adds the
        /// first ones.
        var unfinished = 0
        var errors: [any Error] = []
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
        addObserver(GroupFinishObserver())
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
            case .running:
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
            run(operation, on: queue, cancelled: cancelled)
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
    /// every child while the group executes.
    open func childDidFinish(_ child: Foundation.Operation, errors: [any Error]) {}

    // MARK: Running

    /// Starts the children; the group finishes once every child finished.
    ///
    /// A subclass overriding it adds its children first, then calls `super.execute()`.
    open override func execute() {
        guard
            let (queue, initial, cancelled) = children.withLock({
                children -> (ConditionalOperationQueue, [Foundation.Operation], Bool)? in
                guard children.phase == .waiting, let queue = children.queue else { return nil }
                children.phase = .running
                children.unfinished = 1  // held until the first children were all added
                defer { children.waiting = [] }
                return (queue, children.waiting, children.isCancelled)
            })
        else { return }
        queue.qualityOfService = qualityOfService
        for child in initial { run(child, on: queue, cancelled: cancelled) }
        queue.isSuspended = false
        countFinished(errors: [])
    }

    /// `false`: cancelling the group cancels its children, and it finishes once they finished (S5).
    public final override var finishesWhenCancelled: Bool { false }

    /// Cancels the group and every child, including those added later (S11).
    open override func cancel() {
        super.cancel()
        guard isCancelled else { return }  // finishing had begun: nothing left to cancel
        let (queue, waiting) = children.withLock {
            children -> (ConditionalOperationQueue?, [Foundation.Operation]) in
            guard !children.isCancelled else { return (nil, []) }
            children.isCancelled = true
            return (children.phase == .running ? children.queue : nil, children.waiting)
        }
        for child in waiting { child.cancel() }
        queue?.cancelAllOperations()
    }

    // MARK: From the queue

    /// Adds `child` to the queue; cancelled if the group was (before and after adding it, so that
    /// a concurrent ``cancel()`` can't miss it).
    private func run(_ child: Foundation.Operation, on queue: ConditionalOperationQueue, cancelled: Bool) {
        if cancelled { child.cancel() }
        queue.addOperation(child)
        if !cancelled, children.withLock({ $0.isCancelled }) { child.cancel() }
    }

    /// Scopes the exclusivity categories of `child` by this group (S7), from the moment it is
    /// added: a readiness query (a dependency finishing) may admit it before the group executes.
    private func adopt(_ child: Foundation.Operation) {
        guard let conditional = child as? ConditionalOperation else { return }
        _ = conditional.machine.withLock { $0.setExclusivityParent(self) }
    }

    /// The queue is about to add `child`: count it (S11) and scope its exclusivity categories (S7).
    func childWillBeAdded(_ child: Foundation.Operation) {
        adopt(child)
        let counted = children.withLock { children -> Bool in
            guard children.phase == .running else { return false }
            children.unfinished += 1
            return true
        }
        if !counted && !child.isCancelled { child.cancel() }  // added to a finished group
    }

    /// The queue saw `child` finish with `errors`.
    func childFinished(_ child: Foundation.Operation, errors: [any Error]) {
        guard children.withLock({ $0.phase == .running }) else { return }
        childDidFinish(child, errors: errors)
        countFinished(errors: errors)
    }

    /// One child (or the start of ``execute()``) finished; the last one finishes the group.
    private func countFinished(errors: [any Error]) {
        let finished = children.withLock { children -> [any Error]? in
            guard children.phase == .running else { return nil }
            children.errors.append(contentsOf: errors)
            children.unfinished -= 1
            guard children.unfinished == 0 else { return nil }
            children.phase = .finished
            children.queue = nil
            children.tracker = nil
            defer { children.errors = [] }
            return children.errors
        }
        if let finished { finish(errors: finished) }
    }

    /// The group finished, whichever way: it lets go of its queue and children (S12). Children
    /// that never ran (the group did not execute) are cancelled and run, to reach `finished`.
    func groupDidFinish() {
        let (queue, abandoned) = children.withLock {
            children -> (ConditionalOperationQueue?, [Foundation.Operation]) in
            let abandoned = children.phase == .waiting ? children.waiting : []
            let queue = children.queue
            children.phase = .finished
            children.queue = nil
            children.tracker = nil
            children.waiting = []
            children.errors = []
            return (queue, abandoned)
        }
        guard let queue, !abandoned.isEmpty else { return }
        for child in abandoned {
            child.cancel()
            queue.addOperation(child)
        }
        queue.isSuspended = false
    }
}
