import Foundation

/// A ``ConditionalOperationQueue``'s state: its ``QueueStateMachine`` and its ``QueueRegistry``,
/// behind one lock. Each method is one trip through that lock: the events of the machine (and the
/// registry's changes) it applies, and what it returns, the queue performs outside the lock.
final class QueueStorage: @unchecked Sendable {  // mutable state: behind `state`'s lock
    private struct State {
        var machine = QueueStateMachine()
        var registry = QueueRegistry()
    }

    private let state = Locked(State())

    // MARK: Admission

    /// What registering an operation tells the queue.
    struct Registration {
        /// It was registered already (a misuse, S13).
        let isKnown: Bool
        /// The operations of a dependency cycle it closes (empty if none).
        let cycle: [Foundation.Operation]
        /// For a plain operation: where it goes.
        let route: QueueStateMachine.PlainRoute?
    }

    enum Admission {
        case registered(Registration)
        case prepare(QueueStateMachine.Preparation)
    }

    /// Registers `operation` with its unfinished `dependencies` (a plain one with `plain`, its
    /// facts) if adding it involves nothing else; otherwise what it involves, for the queue to do
    /// before ``register(_:dependencies:plain:)``.
    func admit(
        _ operation: Foundation.Operation, dependencies: [Foundation.Operation],
        plain: QueueStateMachine.PlainFacts?
    ) -> Admission {
        state.withLock { state in
            switch state.machine.admit() {
            case .register:
                return .registered(Self.register(operation, dependencies, plain, in: &state))
            case .prepare(let preparation):
                return .prepare(preparation)
            }
        }
    }

    func register(
        _ operation: Foundation.Operation, dependencies: [Foundation.Operation],
        plain: QueueStateMachine.PlainFacts?
    ) -> Registration {
        state.withLock { Self.register(operation, dependencies, plain, in: &$0) }
    }

    /// A cycle is searched through `ConditionalOperation`s alone: among plain operations it is
    /// Foundation's to break (a cancel makes an operation ready there).
    private static func register(
        _ operation: Foundation.Operation, _ dependencies: [Foundation.Operation],
        _ plain: QueueStateMachine.PlainFacts?, in state: inout State
    ) -> Registration {
        let (isKnown, cycle) = state.registry.add(operation, dependencies: plain == nil ? dependencies : [])
        let route = plain.map { state.machine.routePlain(operation, facts: $0) }
        return Registration(isKnown: isKnown, cycle: cycle, route: route)
    }

    // MARK: Plain operations

    /// A plain operation started while a dependency added since it was submitted has not
    /// finished: its slot goes to the next ones (returned), and where it goes now.
    func startDeclined(_ operation: Foundation.Operation, facts: QueueStateMachine.PlainFacts) -> (
        runnable: [Foundation.Operation], route: QueueStateMachine.PlainRoute
    ) {
        state.withLock { ($0.machine.slotFreed(), $0.machine.routePlain(operation, facts: facts)) }
    }

    func plainDependenciesFinished(_ operation: Foundation.Operation, facts: QueueStateMachine.PlainFacts)
        -> QueueStateMachine.PlainRoute
    {
        state.withLock { $0.machine.plainDependenciesFinished(operation, facts: facts) }
    }

    var waitingPlain: [Foundation.Operation] { state.withLock { Array($0.machine.waitingPlain.values) } }

    func takeCancelledPlain(_ cancelled: [Foundation.Operation]) -> [Foundation.Operation] {
        state.withLock { $0.machine.takeCancelledPlain(cancelled) }
    }

    // MARK: Running

    var limit: Int { state.withLock { $0.machine.scheduler.limit } }
    var isSuspended: Bool { state.withLock { $0.machine.scheduler.isSuspended } }
    var target: DispatchQueue { state.withLock { $0.machine.target } }

    func setLimit(_ limit: Int) -> [Foundation.Operation] { state.withLock { $0.machine.setLimit(limit) } }

    func setSuspended(_ suspended: Bool) -> [Foundation.Operation] {
        state.withLock { $0.machine.setSuspended(suspended) }
    }

    func retarget(_ target: DispatchQueue) { state.withLock { $0.machine.retarget(target) } }

    /// `true` and the target if `count` ready operations all run now.
    func submitAll(count: Int) -> (all: Bool, target: DispatchQueue) {
        state.withLock { ($0.machine.submitAll(count: count), $0.machine.target) }
    }

    func submit(_ operations: [(Foundation.Operation, Foundation.Operation.QueuePriority)]) -> [Foundation
        .Operation]
    {
        state.withLock { $0.machine.submit(operations) }
    }

    func reprioritize(_ operation: Foundation.Operation, to priority: Foundation.Operation.QueuePriority) {
        state.withLock { $0.machine.reprioritize(operation, to: priority) }
    }

    func slotFreed() -> [Foundation.Operation] { state.withLock { $0.machine.slotFreed() } }

    /// An operation finished: the registry forgets it; its slot (unless `heldASlot` is `false`)
    /// goes to the next ones.
    func finished(_ operation: Foundation.Operation, heldASlot: Bool) -> (
        known: Bool, delegate: (any ConditionalOperationQueueDelegate)?, runnable: [Foundation.Operation],
        target: DispatchQueue
    ) {
        state.withLock { state in
            (
                state.registry.remove(operation), state.machine.delegate,
                heldASlot ? state.machine.slotFreed() : [], state.machine.target
            )
        }
    }

    // MARK: Configuration and life

    var delegate: (any ConditionalOperationQueueDelegate)? {
        get { state.withLock { $0.machine.delegate } }
        set { state.withLock { $0.machine.setDelegate(newValue) } }
    }

    var logChannel: LogChannel? { state.withLock { $0.machine.logChannel } }

    func setLogChannel(_ channel: LogChannel?) -> LogChannel? {
        state.withLock { $0.machine.setLogChannel(channel) }
    }

    var isShutDown: Bool { state.withLock { $0.machine.isShutDown } }

    func shutDown() -> QueueStateMachine.ShutdownAction { state.withLock { $0.machine.shutDown() } }

    func addBarrier(_ barrier: Foundation.Operation) { state.withLock { $0.machine.addBarrier(barrier) } }

    func barrierFinished(_ barrier: Foundation.Operation) {
        state.withLock { $0.machine.barrierFinished(barrier) }
    }

    // MARK: The registry

    var operations: [Foundation.Operation] { state.withLock { $0.registry.operations } }

    var cycleSearchVisits: Int { state.withLock { $0.registry.cycleSearchVisits } }

    /// S27: the unfinished operation holding `key`, or `nil` and `operation` holds it from now on.
    func coalescingHolder(of key: InFlightKeys.Key, orClaimFor operation: ConditionalOperation)
        -> ConditionalOperation?
    {
        state.withLock { $0.registry.inFlightKeys.holder(of: key, orClaimFor: operation) }
    }
}
