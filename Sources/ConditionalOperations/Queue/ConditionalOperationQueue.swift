import Foundation

/// An `OperationQueue` that adds what only a queue can do for ``ConditionalOperation``s, and runs
/// its operations itself, on Dispatch, at a fraction of Foundation's cost per operation.
///
/// - A ``delegate`` hears of every operation added and finished (plain operations too).
/// - Condition dependencies are asked for once, when an operation is added, and added to this
///   queue (S3); operations produced by its operations are added to it too (S10).
/// - A dependency cycle among its operations is found when the operation closing it is added, and
///   every operation of the cycle finishes with ``OperationError/dependencyCycle`` instead of
///   hanging (S9). Dependencies added after an operation was enqueued are not seen.
/// - Linear-time scheduling: an operation waits for its dependencies, conditions or categories
///   outside any list that is walked, and runs on Dispatch once ready. A chain of dependent
///   operations thus runs in linear time.
///
/// What a user of `OperationQueue` relies on holds, for plain operations too:
/// `maxConcurrentOperationCount`, `isSuspended`, `queuePriority` among waiting operations (a
/// ``ConditionalOperation``'s changed while it waits counts; a plain operation's is read when it
/// becomes ready), a dependency added to a ready operation not started yet,
/// `qualityOfService` and `underlyingQueue` (where the operations run), `name`,
/// `addBarrierBlock(_:)`, `cancelAllOperations()`, `waitUntilAllOperationsAreFinished()` and
/// `addOperations(_:waitUntilFinished:)`.
///
/// Two things differ from Foundation's queue, because its operations don't go through Foundation's
/// scheduler: `operationCount` and `operations` (which a subclass can't override on Linux) list
/// only the plain operations it leaves to Foundation (one added with unfinished dependencies to a
/// queue without a concurrency limit, or whose own `isReady` says no), so read
/// ``unfinishedOperationCount`` and ``unfinishedOperations`` instead; and inside a running
/// operation `OperationQueue.current` is not this queue: read ``current``.
open class ConditionalOperationQueue: OperationQueue, @unchecked Sendable {
    // mutable state: behind `storage`'s lock
    let storage = QueueStorage()
    /// Entered for each operation added, left once it finished and was forgotten by `storage`:
    /// what `waitUntilAllOperationsAreFinished()` waits for.
    let idle = DispatchGroup()

    /// Creates a queue with Foundation's defaults (no concurrency limit, not suspended), no
    /// ``delegate`` and no ``logger``.
    public override init() {
        super.init()
    }

    /// Hears of the operations added and finished. Held weakly.
    public var delegate: (any ConditionalOperationQueueDelegate)? {
        get { storage.delegate }
        set { storage.delegate = newValue }
    }

    /// Sends every ``ConditionalOperation`` added from now on to `logger` (``OperationLogger``):
    /// its state changes, condition answers, category waits, cancels and finishes. `nil` (the
    /// default): nothing is logged, at no cost.
    public var logger: (any OperationLogger)? {
        get { storage.logChannel?.logger }
        set {
            let replaced = storage.setLogChannel(newValue.map(LogChannel.init))
            withExtendedLifetime(replaced) {}  // the user's logger may go here, unlocked
        }
    }

    /// Records every ``ConditionalOperation`` added from now on in `timeline`
    /// (``OperationTimeline``): what each waited for, when it executed, how it ended. `nil` (the
    /// default): nothing is recorded, at no cost.
    public var timeline: OperationTimeline? {
        get { storage.timeline }
        set {
            let replaced = storage.setTimeline(newValue, parent: nil)
            withExtendedLifetime(replaced) {}  // what it recorded may go here, unlocked
        }
    }

    /// A group's queue: its children are recorded under the group.
    func setTimeline(_ parent: TimelineParent) {
        let replaced = storage.setTimeline(parent.timeline, parent: parent.track)
        withExtendedLifetime(replaced) {}  // what it recorded may go here, unlocked
    }

    /// Every operation added and not yet finished, waiting or running: what Foundation's
    /// `operationCount` counts on a plain `OperationQueue`.
    public var unfinishedOperationCount: Int {
        // The registry lets go of a plain operation only once told that it finished, on another
        // thread, a moment after `isFinished` turned `true`: counted as `unfinishedOperations`
        // lists, so that a queue found idle counts none.
        unfinishedOperations.count
    }

    /// Every operation added and not yet finished, waiting or running, in no particular order:
    /// what Foundation's `operations` lists on a plain `OperationQueue`.
    public var unfinishedOperations: [Foundation.Operation] {
        storage.operations.filter { !$0.isFinished }
    }

    /// Operations its dependency cycle searches visited so far, for tests (S9).
    var cycleSearchVisits: Int { storage.cycleSearchVisits }

    /// Whether ``shutdown(gracePeriod:)`` was called.
    public var isShutDown: Bool { storage.isShutDown }

    /// Marks the queue shut down (S21); returns whether this call did.
    func beginShutdown() -> Bool {
        storage.shutDown() == .begin
    }

    // MARK: Running (how is in `+Scheduling`)

    /// At most this many operations run at once; `OperationQueue.defaultMaxConcurrentOperationCount`
    /// (the default): as many as Dispatch gives threads to.
    ///
    /// Set it before adding plain operations (not ``ConditionalOperation``s) that cannot start at
    /// once (waiting for their dependencies, or whose own `isReady` says no): added while the queue
    /// has no limit, those are left to Foundation's scheduler, which alone hears of their cancel,
    /// and a limit set later does not count them. Foundation's scheduler runs at most the limit of
    /// them at once, beside the operations holding the queue's slots. Setting a limit then says so
    /// in a message naming them.
    open override var maxConcurrentOperationCount: Int {
        get { storage.limit }
        set { setLimit(newValue, setting: "\(diagnosticName).maxConcurrentOperationCount") }
    }

    /// Sets the concurrency limit, `setting` named as the caller names it in messages.
    func setLimit(_ newValue: Int, setting: @autoclosure () -> String) {
        ValueCheck.require(ValueCheck.concurrencyLimit(newValue, setting: setting()))
        super.maxConcurrentOperationCount = newValue  // Foundation's own checks of the value
        let limit = super.maxConcurrentOperationCount
        let (drainer, uncounted) = storage.setLimit(limit)
        startDrainer(on: drainer)
        // Read outside the lock: `isFinished` and `name` may be overridden. One that finished
        // meanwhile has nothing left to count.
        let unfinished = uncounted.filter { !$0.isFinished }
        if !unfinished.isEmpty { reportUncounted(unfinished, limit: limit, setting: setting()) }
    }

    /// A limit set while plain operations added without one are left to Foundation's scheduler: it
    /// does not hold for them. Foundation tells only its own queue when a plain operation is
    /// cancelled, so they stay there, where a cancel ends them at once.
    private func reportUncounted(_ operations: [Foundation.Operation], limit: Int, setting: String) {
        let names = operations.prefix(3).map(\.diagnosticName).joined(separator: ", ")
        let more = operations.count > 3 ? " and \(operations.count - 3) more" : ""
        MisuseLog.log(
            "\(setting) = \(limit): the limit does not count \(names)\(more), added with no limit and left to "
                + "Foundation's scheduler (which alone hears of a plain operation's cancel): those may run beside "
                + "the operations holding the \(limit) slot(s). Set the limit before adding plain operations that "
                + "cannot start at once")
    }

    /// While `true`, no operation starts; those running go on. Conditions are still evaluated
    /// and categories acquired meanwhile, as on any queue.
    open override var isSuspended: Bool {
        get { storage.isSuspended }
        set {
            super.isSuspended = newValue
            startDrainer(on: storage.setSuspended(newValue))
        }
    }

    /// The quality of service of the threads its operations run on (unless ``underlyingQueue``
    /// is set).
    open override var qualityOfService: QualityOfService {
        get { super.qualityOfService }
        set {
            super.qualityOfService = newValue
            retarget()
        }
    }

    /// The Dispatch queue its operations run on; `nil` (the default): a global queue of its
    /// ``qualityOfService``.
    open override var underlyingQueue: DispatchQueue? {
        get { super.underlyingQueue }
        set {
            super.underlyingQueue = newValue
            retarget()
        }
    }

    /// The queue running the current operation: while one of its operations starts (in
    /// `start()`, `execute()` and what they call on that thread), that `ConditionalOperationQueue`;
    /// otherwise Foundation's `OperationQueue.current`.
    ///
    /// A `ConditionalOperationQueue` runs its operations itself, so inside them Foundation's own
    /// `OperationQueue.current` is not the queue: ask `ConditionalOperationQueue.current` instead.
    open override class var current: OperationQueue? {
        RunningQueue.current ?? super.current
    }

    // MARK: Adding

    /// Adds `operation`, telling the ``delegate`` first and making it depend on the queue's
    /// barriers.
    ///
    /// It runs once ready: every dependency finished and, for a ``ConditionalOperation``, its
    /// conditions and categories too. Its condition dependencies are added to this queue, and a
    /// dependency cycle it closes finishes the cycle's operations with
    /// ``OperationError/dependencyCycle``.
    open override func addOperation(_ operation: Foundation.Operation) {
        if FoundationHandOff.isHanding(operation) { return super.addOperation(operation) }
        if admit(operation) { submit(operation) }
    }

    /// Adds a `BlockOperation` running `block`, as `addOperation(_:)` adds any
    /// operation: told to the ``delegate``, counted and waited for like the rest. Overridden
    /// rather than trusted to pass through `addOperation(_:)`, which no Foundation promises.
    open override func addOperation(_ block: @escaping @Sendable () -> Void) {
        addOperation(BlockOperation(block: block))
    }

    /// Adds `operations` in order and, if `wait`, blocks until every one of them finished.
    ///
    /// The ones ready at once are handed to the scheduler together, in batches, so that one ready
    /// before a held one does not wait for the rest of the call.
    open override func addOperations(_ operations: [Foundation.Operation], waitUntilFinished wait: Bool) {
        if operations.count == 1, FoundationHandOff.isHanding(operations[0]) {
            return super.addOperations(operations, waitUntilFinished: wait)
        }
        var ready: [Foundation.Operation] = []
        ready.reserveCapacity(Swift.min(Self.batchSize, operations.count))
        for operation in operations {
            if admit(operation) {
                ready.append(operation)
                guard ready.count == Self.batchSize else { continue }
            } else if ready.isEmpty {
                continue
            }
            // A full batch, or one held back: the ready ones need not wait for the rest.
            submit(ready)
            ready.removeAll(keepingCapacity: true)
        }
        if !ready.isEmpty { submit(ready) }
        guard wait else { return }
        for operation in operations { operation.waitUntilFinished() }
    }

    /// Ready operations handed to the scheduler in one lock trip, so that the first ones run while
    /// the rest are still being added.
    private static let batchSize = 1024

    /// Runs `barrier` once every operation added before it finished; operations added after it
    /// start only once it ran, as on any `OperationQueue`, including operations held back.
    open override func addBarrierBlock(_ barrier: @escaping @Sendable () -> Void) {
        let operation = BlockOperation(block: barrier)
        let (earlier, isShutDown) = storage.addBarrier(operation)
        if isShutDown { Self.cancelForShutdown(operation) }  // S21
        for dependency in earlier where dependency !== operation { operation.addDependency(dependency) }
        FinishWatcher(watching: operation) { [self] in storage.barrierFinished(operation) }
        addOperation(operation)
    }

    /// Hands `operation` to Foundation's own scheduler. Declared here, not in an extension, so
    /// that a test subclass can route it as an `OperationQueue` may, through another entry point.
    func addToFoundation(_ operation: Foundation.Operation) {
        super.addOperation(operation)
    }

    // MARK: Cancelling and waiting

    /// Cancels every operation added and not finished, waiting or running.
    open override func cancelAllOperations() {
        for operation in storage.operations { operation.cancel() }
        submitCancelledPlainOperations()
    }

    /// Blocks until every operation added finished.
    open override func waitUntilAllOperationsAreFinished() {
        idle.wait()
    }

    // MARK: From the operations

    /// A held operation became ready.
    func handOver(_ operation: ConditionalOperation) {
        submit(operation)
    }

    /// Every operation of a dependency cycle finishes without executing (S9): each is marked
    /// before any is released, so that one finishing first lets no other execute.
    ///
    /// Then they are released one after another, each once the one before finished.
    /// swift-corelibs-foundation finishes an operation holding its lock while it takes the lock of
    /// each operation depending on it: two operations of one cycle finishing at once would each
    /// hold its own lock and wait for the other's, for ever, with two of the pool's threads.
    func breakCycle(_ cycle: [Foundation.Operation]) {
        let conditionals = cycle.compactMap { $0 as? ConditionalOperation }
        for operation in conditionals { operation.markInCycle() }
        for operation in cycle where !(operation is ConditionalOperation) {
            operation.cancel()  // a plain operation has no errors to carry the reason
        }
        Self.release(conditionals[...])
    }

    /// Releases the first of `cycle`, and the rest once it finished.
    private static func release(_ cycle: ArraySlice<ConditionalOperation>) {
        guard let first = cycle.first else { return }
        first.whenFinished { release(cycle.dropFirst()) }
        first.breakCycle()
    }
}
