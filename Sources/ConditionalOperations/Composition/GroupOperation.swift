import ConditionalOperationsMachines
import Foundation

/// An operation made of other operations, its children: it finishes once every child finished,
/// with all their errors (S11).
///
/// The children run on a queue of the group's own, a ``ConditionalOperationQueue`` kept
/// suspended until the group executes and given the group's `qualityOfService`. Children added
/// before the group executes are handed to it only then; children may also be added while it
/// runs: from a subclass's ``execute()``, from a child, from an observer of a child, or from
/// ``child(_:didFinishWith:)``. Operations the children produce
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
///   (``finishesWhenCancelled`` is `false`, S5). A group that does not execute (cancelled before
///   or as it starts, by a `didStart` observer or a zero ``TimeoutObserver``; finished by a
///   `didStart` observer; or a condition failed) still runs its children, cancelled, and finishes
///   only after each of them finished (S11).
/// - **Mutual exclusivity** (S7): a child may need a category the group holds (through a
///   ``MutuallyExclusive`` condition of the group or of an enclosing group). It then competes for
///   it with its siblings only, one at a time, while every other operation needing the category
///   waits for the whole group. A group holding a category with a limit (S19) takes one unit of
///   it, which its children share.
/// - **Children** (S11): ``children`` lists every child added, in order;
///   ``maxConcurrentChildren`` bounds how many execute at once; ``child(_:didFinishWith:)``
///   keeps, drops or transforms a child's errors; while ``isSuspended`` is `true`, no child starts
///   (S30).
/// - **Memory** (S12): a finished group holds no queue; it keeps its ``children`` as long as it
///   lives, as an array would.
/// - **Progress**: its ``ConditionalOperation/progress`` adds up its children's, one unit each,
///   the total growing with children added (one unit while it has none); a
///   ``ConditionalOperation`` child's own progress becomes a child of it
///   (`progressView.observedProgress = group.progress`). Read the first time after the group
///   finished, it counts every child, done (S31).
///
/// A child added once the group finished is cancelled and run on a queue of the library.
///
/// A subclass overriding ``execute()`` adds its children first and then calls `super.execute()`,
/// which starts them.
open class GroupOperation: ConditionalOperation, @unchecked Sendable {
    // mutable state: `lockedGroup`, behind the operation's own lock (`withOwnLock`)
    /// The children. Only reached under the operation's own lock, which makes every access
    /// exclusive: the group takes no lock of its own, and its cancel reaches its children in the
    /// cancel's own trip through that lock.
    @exclusivity(unchecked) var lockedGroup: GroupMachine

    /// Creates a group of `operations`; more can be added with ``addOperation(_:)``.
    public init(operations: [Foundation.Operation] = []) {
        let queue = ConditionalOperationQueue()
        queue.isSuspended = true
        queue.name = "GroupOperation"
        lockedGroup = GroupMachine(queue: queue, children: operations)
        super.init()
        let tracker = GroupChildTracker(group: self)
        queue.delegate = tracker
        withOwnLock { lockedGroup.track(with: tracker) }
        drainBeforeFinishing()
        for operation in operations { adopt(operation) }
    }

    /// Recorded in a timeline: its children are recorded under it, by its queue.
    override func recordInnerOperations(in parent: TimelineParent) {
        withOwnLock { lockedGroup.queue }?.setTimeline(parent)
    }

    // MARK: Children

    /// Adds a child.
    ///
    /// Before the group executes, the child waits for it; while it executes, the child runs at
    /// once (and is cancelled first if the group was cancelled). Once the group finished, the
    /// child is cancelled and run on a queue of the library.
    public func addOperation(_ operation: Foundation.Operation) {
        let (action, counted) = withOwnLock {
            (lockedGroup.add(operation), lockedGroup.progressChildAdded(operation))
        }
        countProgress(of: operation, adopt: counted.adopt, write: counted.write)
        switch action {
        case .adopt(let cancel):
            adopt(operation)
            if cancel { operation.cancel() }
        case .run(let queue, let cancel):
            if cancel { operation.cancel() }
            queue.addOperation(operation)
        case .runLate:
            #if DEBUG
                MisuseLog.log(
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

    /// The errors the group keeps from a finished child (S11): the default keeps `errors`;
    /// return `[]` to ignore the child's failure, or other errors to transform it.
    ///
    /// Called once per finished child, before the group counts it as finished, so a subclass may
    /// also add more children here; for every child the group ran (also the cancelled children of
    /// a group that did not execute), outside every lock of the library, on the thread that
    /// finished the child.
    ///
    /// ```swift
    /// final class SyncAll: GroupOperation, @unchecked Sendable {
    ///     override func child(_ child: Operation, didFinishWith errors: [any Error]) -> [any Error] {
    ///         errors.filter { !($0 is CancellationError) }  // a cancelled child is no failure here
    ///     }
    /// }
    /// ```
    open func child(_ child: Foundation.Operation, didFinishWith errors: [any Error]) -> [any Error] {
        errors
    }

    /// Every child added, in the order added (S11): given to ``init(operations:)`` or
    /// ``addOperation(_:)``, produced by a child, or a child's condition dependency. The group
    /// keeps them as long as it lives.
    public var children: [Foundation.Operation] {
        withOwnLock { lockedGroup.allChildren }
    }

    /// Whether the group handed its children to its queue (it executes, or started without
    /// executing): until then they wait for it (a child's diagnosis says so, S31).
    var hasStarted: Bool {
        withOwnLock { lockedGroup.hasStarted }
    }

    /// How many children execute at once (S11); `OperationQueue.defaultMaxConcurrentOperationCount`
    /// (as many as the system allows) unless set. The children's queue takes it at once, also
    /// while the group runs, but for plain children (not ``ConditionalOperation``s) added while it
    /// had no limit that cannot start at once: those are left to Foundation's scheduler, which
    /// the limit does not count (a message names them; see
    /// ``ConditionalOperationQueue/maxConcurrentOperationCount``).
    ///
    /// ```swift
    /// let downloads = GroupOperation(operations: files.map { DownloadOperation(file: $0) })
    /// downloads.maxConcurrentChildren = 2
    /// ```
    public var maxConcurrentChildren: Int {
        get { withOwnLock { lockedGroup.maxConcurrentChildren } }
        set {
            ValueCheck.require(
                ValueCheck.concurrencyLimit(newValue, setting: "\(diagnosticName).maxConcurrentChildren"))
            let queue = withOwnLock { lockedGroup.setMaxConcurrentChildren(newValue) }
            queue?.setLimit(newValue, setting: "\(diagnosticName).maxConcurrentChildren")
        }
    }

    // MARK: Running

    /// Starts the children; the group finishes once every child finished.
    ///
    /// A subclass overriding it adds its children first, then calls `super.execute()`.
    open override func execute() {
        start(.finish)
    }

    /// Started without executing: the children are cancelled and run all the same, and the group
    /// finishes once each of them finished (S11).
    override func drain() {
        start(.finishDraining)
    }

    /// `false`: cancelling the group cancels its children, and it finishes once they finished (S5).
    public final override var finishesWhenCancelled: Bool { false }

    /// Cancels the group and every child, including those held back by a dependency or a
    /// condition and those added later (S11).
    ///
    /// The group's children are told of the cancel in the cancel's own trip through the lock: a
    /// child added once the group counts as cancelled is cancelled as it is added. No child starts
    /// while the group's `operationDidCancel` observers run: one that waits there for a child to
    /// start waits forever.
    open override func cancel() {
        // A cancel that does not count (finishing had begun, or cancelled already) leaves nothing
        // to cancel. The children's queue is held suspended before the group's own cancel is told:
        // what that tells may end a child (an observer, the progress cancelling the children's),
        // and the slot it frees must not start a sibling the cancel has not reached yet.
        let action = cancel(
            recording: { counts in counts ? lockedGroup.cancel() : .none },
            beforeTelling: { action in
                if case .cancel(_, let suspension?) = action { suspendQueue(suspension) }
            })
        guard case .cancel(let children, let suspension) = action else { return }
        for child in children { child.cancel() }
        // A group that has not started keeps its queue suspended until then: no hold to release.
        if suspension != nil { suspendQueue(withOwnLock { lockedGroup.childrenCancelled() }) }
    }

    /// Hands the waiting children to the queue and starts it.
    private func start(_ ending: GroupMachine.Ending) {
        let action = withOwnLock { lockedGroup.start(ending) }
        switch action {
        case .start(let queue, let children):
            queue.qualityOfService = qualityOfService
            for child in children { queue.addOperation(child) }
            suspendQueue(withOwnLock { lockedGroup.started() })
            countFinished(nil, errors: [])
        }
    }

    // MARK: From the queue

    /// Scopes the exclusivity categories of `child` by this group (S7), from the moment it is
    /// added: a readiness query (a dependency finishing) may admit it before the group executes.
    private func adopt(_ child: Foundation.Operation) {
        guard let conditional = child as? ConditionalOperation else { return }
        conditional.adoptParent(self)
    }

    /// The queue is about to add `child`: count it (S11), cancel it if the group was cancelled,
    /// and scope its exclusivity categories (S7).
    func childWillBeAdded(_ child: Foundation.Operation) {
        adopt(child)
        let (cancels, counted) = withOwnLock {
            (lockedGroup.childWillBeAdded(child), lockedGroup.progressChildAdded(child))
        }
        countProgress(of: child, adopt: counted.adopt, write: counted.write)
        if cancels && !child.isCancelled { child.cancel() }
    }

    /// The queue saw `child` finish with `errors`.
    func childFinished(_ child: Foundation.Operation, errors: [any Error]) {
        guard withOwnLock({ lockedGroup.isRunning }) else { return }
        countFinished(child, errors: self.child(child, didFinishWith: errors))
    }

    /// One child (or the start, `nil`) finished; the last one ends the group.
    private func countFinished(_ child: Foundation.Operation?, errors: [any Error]) {
        var (write, action) = withOwnLock {
            // The progress first: counting the last child ends the group and lets go of it.
            (
                child.flatMap { lockedGroup.progressChildFinished($0) },
                lockedGroup.childFinished(child, errors: errors)
            )
        }
        if let write { writeProgress(write) }
        guard case .end(let ending, let errors, let progress, _) = action else { return }
        // What the group let go of (its queue, S12) is dropped here, unlocked, before it finishes:
        // a deinit may take the operation's lock.
        action = .none
        if let progress { writeCounts(progress) }
        end(ending, errors: errors)
    }

    /// The last child finished: the group finishes as it started, executing or not.
    private func end(_ ending: GroupMachine.Ending, errors: [any Error]) {
        switch ending {
        case .finish:
            // Foundation runs a progress's cancellation handler later, on another thread, after it
            // cancelled the children's progress: the children may all finish before the group's
            // handler runs, and the group must not then end as if nobody had cancelled it.
            if let progress = ProgressTable.progress(of: self),
                ProgressWrites.perform({ progress.isCancelled })
            {
                cancel()
            }
            finish(errors: errors)
        case .finishDraining:
            finishDraining(errors: errors)
        }
    }
}
