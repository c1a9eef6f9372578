import Foundation

/// An `OperationQueue` that adds what only a queue can do for ``ConditionalOperation``s.
///
/// - A ``delegate`` hears of every operation added and finished (plain operations too).
/// - Condition dependencies are asked for once, when an operation is added, and added to this
///   queue (S3); operations produced by its operations are added to it too (S10).
/// - A dependency cycle among its operations is found when the operation closing it is added, and
///   every operation of the cycle finishes with ``OperationError/dependencyCycle`` instead of
///   hanging (S9). Dependencies added after an operation was enqueued are not seen.
/// - Linear-time scheduling: a ``ConditionalOperation`` waiting for dependencies, conditions or an
///   exclusivity category stays out of Foundation's queue, whose every scheduling pass walks all
///   the operations it holds (on Linux), and is handed to it once ready. A chain of dependent
///   operations thus runs in linear time.
///
/// Everything else is Foundation's: `maxConcurrentOperationCount`, `isSuspended`, priorities and
/// quality of service apply as on any `OperationQueue`. `cancelAllOperations()`,
/// `waitUntilAllOperationsAreFinished()` and barriers include the operations held back.
///
/// `operationCount` and `operations` can't be overridden on Linux: they count only the operations
/// Foundation holds, that is, plain operations and ``ConditionalOperation``s that are ready or
/// running. ``unfinishedOperationCount`` counts everything added and not finished.
open class ConditionalOperationQueue: OperationQueue, @unchecked Sendable {
    // mutable state: behind `registry`'s lock
    private let registry = Locked(QueueRegistry())

    /// Creates a queue with Foundation's defaults (no concurrency limit, not suspended), no
    /// ``delegate`` and no ``logger``.
    public override init() {
        super.init()
    }

    /// Hears of the operations added and finished. Held weakly.
    public var delegate: (any ConditionalOperationQueueDelegate)? {
        get { registry.withLock { $0.delegate } }
        set { registry.withLock { $0.delegate = newValue } }
    }

    /// Sends every ``ConditionalOperation`` added from now on to `logger` (``OperationLogger``):
    /// its state changes, condition answers, category waits, cancels and finishes. `nil` (the
    /// default): nothing is logged, at no cost.
    public var logger: (any OperationLogger)? {
        get { registry.withLock { $0.logChannel?.logger } }
        set {
            let channel = newValue.map(LogChannel.init)
            let replaced = registry.withLock { registry in
                defer { registry.logChannel = channel }
                return registry.logChannel
            }
            withExtendedLifetime(replaced) {}  // the user's logger may go here, unlocked
        }
    }

    /// Every operation added and not yet finished: those held back and those Foundation holds.
    public var unfinishedOperationCount: Int {
        registry.withLock { $0.count } + operationCount
    }

    /// The operations held back until ready (not yet in Foundation's `operations`).
    var heldOperations: [Foundation.Operation] { registry.withLock { $0.operations } }

    /// Whether ``shutdown(gracePeriod:)`` was called.
    public var isShutDown: Bool { registry.withLock { $0.isShutDown } }

    /// Marks the queue shut down (S21); returns whether this call did.
    func beginShutdown() -> Bool {
        registry.withLock { registry in
            defer { registry.isShutDown = true }
            return !registry.isShutDown
        }
    }

    // MARK: Adding

    /// Adds `operation`, telling the ``delegate`` first and making it depend on the queue's
    /// barriers.
    ///
    /// Unlike a plain `OperationQueue`, a ``ConditionalOperation`` that is not ready yet (waiting
    /// for dependencies, conditions or a category) is held back and handed to Foundation once it
    /// is ready; its condition dependencies are added to this queue, and a dependency cycle it
    /// closes finishes the cycle's operations with ``OperationError/dependencyCycle``. Any other
    /// operation goes to Foundation at once.
    open override func addOperation(_ operation: Foundation.Operation) {
        if admit(operation) { super.addOperation(operation) }
    }

    /// Adds `operations` in order and, if `wait`, blocks until every one of them finished.
    ///
    /// The ones ready at once reach Foundation in batches, and one ready before a held one does
    /// not wait for the rest of the call. While the call runs, an operation it already took in may
    /// not be counted by ``unfinishedOperationCount`` or reached by `cancelAllOperations()` yet
    /// (from the delegate's `willAdd`, say): they see each operation once its batch was handed over.
    open override func addOperations(_ operations: [Foundation.Operation], waitUntilFinished wait: Bool) {
        // The ready operations go to Foundation in batches: one lock and one scheduling pass each
        // instead of one per operation. Foundation holds its lock while it dispatches a whole
        // batch, and every finishing operation needs that lock: with no concurrency limit, batches
        // of a bounded size let operations run while the rest are still being dispatched. With a
        // limit, one batch keeps Foundation's priority order among all of them.
        let batchSize =
            maxConcurrentOperationCount == OperationQueue.defaultMaxConcurrentOperationCount
            ? Self.handOverBatchSize : operations.count
        var ready: [Foundation.Operation] = []
        ready.reserveCapacity(Swift.min(batchSize, operations.count))
        for operation in operations {
            if admit(operation) {
                ready.append(operation)
                guard ready.count == batchSize else { continue }
            } else if ready.isEmpty {
                continue
            }
            // A full batch, or one held back: the ready ones need not wait for the rest.
            super.addOperations(ready, waitUntilFinished: false)
            ready.removeAll(keepingCapacity: true)
        }
        if !ready.isEmpty { super.addOperations(ready, waitUntilFinished: false) }
        guard wait else { return }
        for operation in operations { operation.waitUntilFinished() }
    }

    /// Measured with the benchmark's noop-conditional-queue scenario (2 cores): 256 to 16k
    /// operations per batch all beat a single batch and one operation at a time; 1k was best.
    private static let handOverBatchSize = 1024

    /// Takes `operation` in: tells the delegate, adds the barriers, holds it back while it is not
    /// ready. Returns whether it goes to Foundation now (the caller hands it over).
    private func admit(_ operation: Foundation.Operation) -> Bool {
        let (delegate, barriers, logChannel, isShutDown) = registry.withLock {
            ($0.delegate, $0.barriers, $0.logChannel, $0.isShutDown)
        }
        if isShutDown { Self.cancelForShutdown(operation) }  // S21: it finishes without running
        delegate?.operationQueue(self, willAdd: operation)
        for barrier in barriers where barrier !== operation { operation.addDependency(barrier) }
        if let logChannel, let conditional = operation as? ConditionalOperation {
            conditional.addLogChannel(logChannel)
        }
        guard let conditional = operation as? ConditionalOperation else {
            if delegate != nil {
                FinishWatcher(watching: operation) { [self] in operationFinished(operation, errors: []) }
            }
            return true
        }
        // Only an operation with unfinished dependencies can be part of a cycle. Foundation's own
        // readiness answers cheaply for the common operation without any; listing them costs more.
        let dependencies =
            conditional.dependenciesFinished ? [] : operation.dependencies.filter { !$0.isFinished }
        var cycle: [Foundation.Operation] = []
        if !dependencies.isEmpty {
            cycle = registry.withLock { $0.add(operation, dependencies: dependencies) }
        }
        let isReady = conditional.enqueue(on: self, dependenciesFinished: dependencies.isEmpty)
        if isReady, !dependencies.isEmpty {
            registry.withLock { $0.remove(operation) }
        } else if !isReady, dependencies.isEmpty {
            // Still held back (conditions, categories): keep it where cancel and wait find it.
            _ = registry.withLock { $0.add(operation, dependencies: []) }
            // handed over meanwhile
            if conditional.state >= .ready { registry.withLock { $0.remove(operation) } }
        }
        if !cycle.isEmpty { breakCycle(cycle) }
        return isReady
    }

    /// Runs `barrier` once every operation added before it finished; operations added after it
    /// start only once it ran, as on any `OperationQueue`, including operations held back.
    open override func addBarrierBlock(_ barrier: @escaping @Sendable () -> Void) {
        let operation = BlockOperation(block: barrier)
        let held = registry.withLock { $0.operations }
        for earlier in held + operations where earlier !== operation { operation.addDependency(earlier) }
        registry.withLock { $0.addBarrier(operation) }
        FinishWatcher(watching: operation) { [self] in registry.withLock { $0.removeBarrier(operation) } }
        addOperation(operation)
    }

    // MARK: Cancelling and waiting

    /// Cancels every operation added and not finished, including those held back.
    open override func cancelAllOperations() {
        // The held ones first: cancelling Foundation's may finish the dependency of a held one,
        // which is then handed over and would be missed by both lists (S11).
        for operation in registry.withLock({ $0.operations }) { operation.cancel() }
        super.cancelAllOperations()
    }

    /// Blocks until every operation added, including those held back, finished.
    open override func waitUntilAllOperationsAreFinished() {
        while let operation = registry.withLock({ $0.anyOperation { !$0.isFinished } }) {
            operation.waitUntilFinished()
        }
        super.waitUntilAllOperationsAreFinished()
    }

    // MARK: From the operations

    /// A held operation became ready: Foundation takes it from here.
    func handOver(_ operation: ConditionalOperation) {
        // Foundation's first, then forgotten here: `cancelAllOperations()` finds it in one of them.
        super.addOperation(operation)
        registry.withLock { $0.remove(operation) }
    }

    /// An operation of this queue finished (every operation was handed over before).
    func operationFinished(_ operation: Foundation.Operation, errors: [any Error]) {
        guard let delegate = registry.withLock({ $0.delegate }) else { return }
        delegate.operationQueue(self, operationDidFinish: operation, errors: errors)
    }

    /// Every operation of a dependency cycle finishes without executing (S9).
    private func breakCycle(_ cycle: [Foundation.Operation]) {
        let conditionals = cycle.compactMap { $0 as? ConditionalOperation }
        for operation in conditionals { operation.markInCycle() }
        for operation in cycle where !(operation is ConditionalOperation) {
            operation.cancel()  // a plain operation has no errors to carry the reason
        }
        for operation in conditionals { operation.breakCycle() }
    }
}
