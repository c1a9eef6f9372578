import Foundation

/// An `OperationQueue` that adds what only a queue can do for ``ConditionalOperation``s.
///
/// - A ``delegate`` hears of every operation added and finished (plain operations too).
/// - Condition dependencies are asked for once, when an operation is added, and added to this
///   queue (S3); operations produced by its operations are added to it too (S10).
/// - A dependency cycle among its operations is found when the operation closing it is added, and
///   every operation of the cycle finishes with ``OperationError/dependencyCycle`` instead of
///   hanging (S9).
/// - Linear-time scheduling: a ``ConditionalOperation`` waiting for dependencies, conditions or an
///   exclusivity category stays out of Foundation's queue, whose every scheduling pass walks all
///   the operations it holds (on Linux), and is handed to it once ready. A chain of dependent
///   operations thus runs in linear time.
///
/// Everything else is Foundation's: `maxConcurrentOperationCount`, `isSuspended`, priorities and
/// quality of service apply as on any `OperationQueue`.
///
/// `operationCount` and `operations` can't be overridden on Linux: they count only the operations
/// Foundation holds, that is, plain operations and ``ConditionalOperation``s that are ready or
/// running. ``unfinishedOperationCount`` counts everything added and not finished.
open class ConditionalOperationQueue: OperationQueue, @unchecked Sendable {  // mutable state: behind `registry`'s and `delegateReference`'s locks
    private let registry = StateLock(QueueRegistry())
    private let delegateReference = Locked(WeakDelegate())

    private struct WeakDelegate {
        weak var value: (any ConditionalOperationQueueDelegate)?
    }

    public override init() {
        super.init()
    }

    /// Hears of the operations added and finished. Held weakly.
    public var delegate: (any ConditionalOperationQueueDelegate)? {
        get { delegateReference.withLock { $0.value } }
        set { delegateReference.withLock { $0.value = newValue } }
    }

    /// Every operation added and not yet finished, whether Foundation holds it yet or not.
    public var unfinishedOperationCount: Int { registry.withLock { $0.count } }

    // MARK: Adding

    open override func addOperation(_ operation: Foundation.Operation) {
        delegate?.operationQueue(self, willAdd: operation)
        let barriers = registry.withLock { $0.barriers }
        for barrier in barriers where barrier !== operation { operation.addDependency(barrier) }
        let dependencies = operation.dependencies.filter { !$0.isFinished }
        let cycle = registry.withLock { $0.add(operation, dependencies: dependencies) }
        if let conditional = operation as? ConditionalOperation {
            conditional.enqueue(on: self)
        } else {
            FinishWatcher(watching: operation) { [self] in operationFinished(operation, errors: []) }
            super.addOperation(operation)
        }
        if !cycle.isEmpty { breakCycle(cycle) }
    }

    open override func addOperations(_ operations: [Foundation.Operation], waitUntilFinished wait: Bool) {
        for operation in operations { addOperation(operation) }
        guard wait else { return }
        for operation in operations { operation.waitUntilFinished() }
    }

    /// Runs `barrier` once every operation added before it finished; operations added after it
    /// start only once it ran, as on any `OperationQueue`, including operations this queue still
    /// holds back.
    open override func addBarrierBlock(_ barrier: @escaping @Sendable () -> Void) {
        let operation = BlockOperation(block: barrier)
        for earlier in registry.withLock({ $0.operations }) { operation.addDependency(earlier) }
        registry.withLock { $0.addBarrier(operation) }
        addOperation(operation)
    }

    // MARK: Cancelling and waiting

    /// Cancels every operation added and not finished, including those the queue still holds back.
    open override func cancelAllOperations() {
        super.cancelAllOperations()
        for operation in registry.withLock({ $0.operations }) { operation.cancel() }
    }

    /// Blocks until every operation added, including those the queue still holds back, finished.
    open override func waitUntilAllOperationsAreFinished() {
        while let operation = registry.withLock({ $0.anyOperation { !$0.isFinished } }) {
            operation.waitUntilFinished()
        }
        super.waitUntilAllOperationsAreFinished()
    }

    // MARK: From the operations

    /// A held operation became ready: Foundation takes it from here.
    func handOver(_ operation: ConditionalOperation) {
        super.addOperation(operation)
    }

    /// An operation of this queue finished.
    func operationFinished(_ operation: Foundation.Operation, errors: [any Error]) {
        registry.withLock { $0.remove(operation) }
        delegate?.operationQueue(self, operationDidFinish: operation, errors: errors)
    }

    /// Every operation of a dependency cycle finishes without executing (S9).
    private func breakCycle(_ cycle: [Foundation.Operation]) {
        for operation in cycle {
            if let conditional = operation as? ConditionalOperation {
                conditional.abandonForCycle()
            } else {
                operation.cancel()  // a plain operation has no errors to carry the reason
            }
        }
    }
}
