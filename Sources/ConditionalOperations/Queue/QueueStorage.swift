import ConditionalOperationsMachines
import Foundation

/// A ``ConditionalOperationQueue``'s state: its machine (`QueueStateMachine`), its ``QueueRegistry``
/// and its listeners (the delegate, the logger's channel), behind one lock. Each method is one trip through that lock: the events of the machine (and the
/// registry's changes) it applies, and what it returns, the queue performs outside the lock.
final class QueueStorage: @unchecked Sendable {  // mutable state: behind `state`'s lock
    private struct State {
        var machine = QueueStateMachine()
        var registry = QueueRegistry()
        /// Held weakly, as `OperationQueue`'s.
        weak var delegate: (any ConditionalOperationQueueDelegate)?
        /// Where the queue's ``OperationLogger`` receives its operations' records, if it has one.
        var logChannel: LogChannel?
        /// Where the queue's operations are recorded, if it has one (``OperationTimeline``), and
        /// the track they are recorded under (a group's queue's: the group's).
        var timeline: OperationTimeline?
        var timelineParent: Int?

        /// A timeline is not among them: it records an operation once registered, before it is
        /// enqueued, which the trip that registers it tells.
        var isListened: Bool { delegate != nil || logChannel != nil }
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
        /// Where it is recorded, if the queue has a timeline, and under which track.
        let timeline: OperationTimeline?
        let timelineParent: Int?
    }

    /// What adding an operation involves besides registering it.
    struct Preparation {
        let delegate: (any ConditionalOperationQueueDelegate)?
        let barriers: [Foundation.Operation]
        let logChannel: LogChannel?
        let isShutDown: Bool
    }

    enum Admission {
        case registered(Registration)
        case prepare(Preparation)
    }

    /// Registers `operation` with its unfinished `dependencies` (a plain one with `plain`, its
    /// facts) if adding it involves nothing else; otherwise what it involves, for the queue to do
    /// before ``register(_:dependencies:plain:after:cancelledForShutdown:)``.
    func admit(
        _ operation: Foundation.Operation, dependencies: [Foundation.Operation],
        plain: QueueStateMachine.PlainFacts?
    ) -> Admission {
        state.withLock { state in
            switch state.machine.admit(operation, listened: state.isListened) {
            case .register:
                return .registered(Self.register(operation, dependencies, plain, in: &state))
            case .prepare(let barriers, let isShutDown):
                return .prepare(
                    Preparation(
                        delegate: state.delegate, barriers: barriers, logChannel: state.logChannel,
                        isShutDown: isShutDown))
            }
        }
    }

    /// Registers `operation`, made to depend on the barrier blocks `barriers` (and cancelled if
    /// `cancelledForShutdown`), unless one was added since they were read (by a delegate told the
    /// operation is about to be added, or on another thread), or the queue was shut down: then
    /// what the caller does first.
    func register(
        _ operation: Foundation.Operation, dependencies: [Foundation.Operation],
        plain: QueueStateMachine.PlainFacts?, after barriers: [Foundation.Operation],
        cancelledForShutdown: Bool
    ) -> Registering {
        state.withLock { state in
            if !cancelledForShutdown, state.machine.cancelsForShutdown(operation) { return .shutDown }
            let added = state.machine.barriers(awaitedBy: operation).filter { barrier in
                !barriers.contains { $0 === barrier }
            }
            guard added.isEmpty else { return .barriersAdded(added) }
            return .registered(Self.register(operation, dependencies, plain, in: &state))
        }
    }

    enum Registering {
        case registered(Registration)
        /// Barrier blocks added while the operation was being added: it depends on them too.
        case barriersAdded([Foundation.Operation])
        /// Shut down while the operation was being added: it finishes without running (S21).
        case shutDown
    }

    /// A cycle is searched through `ConditionalOperation`s alone: among plain operations it is
    /// Foundation's to break (a cancel makes an operation ready there).
    private static func register(
        _ operation: Foundation.Operation, _ dependencies: [Foundation.Operation],
        _ plain: QueueStateMachine.PlainFacts?, in state: inout State
    ) -> Registration {
        let (isKnown, cycle) = state.registry.add(operation, dependencies: plain == nil ? dependencies : [])
        let route = plain.map { state.machine.routePlain(operation, facts: $0) }
        return Registration(
            isKnown: isKnown, cycle: cycle, route: route, timeline: state.timeline,
            timelineParent: state.timelineParent)
    }

    // MARK: Plain operations

    /// A plain operation started while a dependency added since it was submitted has not
    /// finished: its slot goes to the next ones (a drainer's target returned if they need one),
    /// and where it goes now.
    func startDeclined(_ operation: Foundation.Operation, facts: QueueStateMachine.PlainFacts) -> (
        drainer: QueueStateMachine.Drainer?, route: QueueStateMachine.PlainRoute
    ) {
        state.withLock { state in
            let drainer = Self.handOut(state.machine.slotFreed(), in: &state)
            return (drainer, state.machine.routePlain(operation, facts: facts))
        }
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

    var limit: Int { state.withLock { $0.machine.limit } }
    var isSuspended: Bool { state.withLock { $0.machine.isSuspended } }
    var target: DispatchQueue { state.withLock { $0.machine.target } }

    // Each change below that lets operations run hands them out to the queue's drainers in its
    // own trip, and returns the target to start a drainer on if they need a new one.

    /// How many plain operations Foundation's scheduler runs without a slot (``setLimit(_:)``).
    var unslottedPlainCount: Int { state.withLock { $0.machine.unslottedPlain.count } }

    /// Also returns the plain operations Foundation's scheduler runs without a slot, which a limit
    /// cannot count (``QueueStateMachine/unslottedPlain``), if `limit` is one.
    func setLimit(_ limit: Int) -> (drainer: QueueStateMachine.Drainer?, uncounted: [Foundation.Operation]) {
        state.withLock {
            let uncounted =
                limit == OperationQueue.defaultMaxConcurrentOperationCount
                ? [] : Array($0.machine.unslottedPlain.values)
            return (Self.handOut($0.machine.setLimit(limit), in: &$0), uncounted)
        }
    }

    func setSuspended(_ suspended: Bool) -> QueueStateMachine.Drainer? {
        state.withLock { Self.handOut($0.machine.setSuspended(suspended), in: &$0) }
    }

    func retarget(_ target: DispatchQueue) { state.withLock { $0.machine.retarget(target) } }

    /// `true` if the ready `operations` all run now (no limit or suspension holds any back, none
    /// waits): they are handed out.
    /// `fromOutside`: submitted by a thread that is not one of the queue's drainers.
    func submitAll(_ operations: some Collection<Foundation.Operation>, fromOutside: Bool) -> (
        all: Bool, drainer: QueueStateMachine.Drainer?
    ) {
        state.withLock { state in
            guard state.machine.submitAll(count: operations.count) else { return (false, nil) }
            return (true, Self.handOut(operations, in: &state, fromOutside: fromOutside))
        }
    }

    func submit(
        _ operations: [(Foundation.Operation, Foundation.Operation.QueuePriority)], fromOutside: Bool
    ) -> QueueStateMachine.Drainer? {
        state.withLock { Self.handOut($0.machine.submit(operations), in: &$0, fromOutside: fromOutside) }
    }

    func reprioritize(_ operation: Foundation.Operation, to priority: Foundation.Operation.QueuePriority) {
        state.withLock { $0.machine.reprioritize(operation, to: priority) }
    }

    func slotFreed() -> QueueStateMachine.Drainer? {
        state.withLock { Self.handOut($0.machine.slotFreed(), in: &$0) }
    }

    private static func handOut(
        _ operations: some Collection<Foundation.Operation>, in state: inout State, fromOutside: Bool = false
    ) -> QueueStateMachine.Drainer? {
        if operations.count == 1, let operation = operations.first {
            return state.machine.handOut(operation, fromOutside: fromOutside)
        }
        return operations.isEmpty ? nil : state.machine.handOut(Array(operations))
    }

    func nextToStart(isBack: Bool, on target: DispatchQueue) -> (
        operation: Foundation.Operation?, another: DispatchQueue?
    ) {
        state.withLock { $0.machine.nextToStart(isBack: isBack, on: target) }
    }

    /// An operation finished: the registry forgets it; its slot (unless `heldASlot` is `false`)
    /// goes to the next ones.
    func finished(_ operation: Foundation.Operation, heldASlot: Bool) -> (
        known: Bool, delegate: (any ConditionalOperationQueueDelegate)?, drainer: QueueStateMachine.Drainer?
    ) {
        state.withLock { state in
            if !heldASlot { state.machine.plainFinished(operation) }
            let drainer = heldASlot ? Self.handOut(state.machine.slotFreed(), in: &state) : nil
            return (state.registry.remove(operation), state.delegate, drainer)
        }
    }

    /// An operation a drainer on `target` started finished within its `start()` (``finished(_:heldASlot:)``),
    /// and the drainer asks for the next one (``nextToStart(isBack:on:)``), in one trip.
    func finishedWithinStart(_ operation: Foundation.Operation, heldASlot: Bool, on target: DispatchQueue)
        -> (
            known: Bool, delegate: (any ConditionalOperationQueueDelegate)?, next: Foundation.Operation?,
            another: DispatchQueue?
        )
    {
        state.withLock { state in
            let (next, another) = state.machine.finishedWithinStart(heldASlot: heldASlot, on: target)
            return (state.registry.remove(operation), state.delegate, next, another)
        }
    }

    // MARK: Configuration and life

    var delegate: (any ConditionalOperationQueueDelegate)? {
        get { state.withLock { $0.delegate } }
        set { state.withLock { $0.delegate = newValue } }
    }

    var logChannel: LogChannel? { state.withLock { $0.logChannel } }

    /// Returns the channel replaced, to be let go of outside the lock (the user's logger may go
    /// with it).
    func setLogChannel(_ channel: LogChannel?) -> LogChannel? {
        state.withLock { state in
            defer { state.logChannel = channel }
            return state.logChannel
        }
    }

    var timeline: OperationTimeline? { state.withLock { $0.timeline } }

    /// Returns the timeline replaced, to be let go of outside the lock (what it recorded holds
    /// conditions and errors of the user's).
    func setTimeline(_ timeline: OperationTimeline?, parent: Int?) -> OperationTimeline? {
        state.withLock { state in
            defer { (state.timeline, state.timelineParent) = (timeline, parent) }
            return state.timeline
        }
    }

    var isShutDown: Bool { state.withLock { $0.machine.isShutDown } }

    func shutDown() -> QueueStateMachine.ShutdownAction { state.withLock { $0.machine.shutDown() } }

    /// Holds back every operation added from now on until `barrier` finished; returns those
    /// added before it (the finished ones among them a moment more), which it waits for, and
    /// whether the queue is shut down (S21: it then finishes without running). One trip: an
    /// operation added meanwhile is one or the other.
    func addBarrier(_ barrier: Foundation.Operation) -> (earlier: [Foundation.Operation], isShutDown: Bool) {
        state.withLock { state in
            state.machine.addBarrier(barrier)
            return (state.registry.operations, state.machine.isShutDown)
        }
    }

    func barrierFinished(_ barrier: Foundation.Operation) {
        state.withLock { $0.machine.barrierFinished(barrier) }
    }

    // MARK: The registry

    var operations: [Foundation.Operation] { state.withLock { $0.registry.operations } }

    var cycleSearchVisits: Int { state.withLock { $0.registry.cycleSearchVisits } }

    /// The operations of the cycle `operation` closes, once the edges through `finished` went
    /// (``QueueRegistry/detach(_:)``).
    func cycle(of operation: Foundation.Operation, detaching finished: [Foundation.Operation])
        -> [Foundation.Operation]
    {
        state.withLock { state in
            state.registry.detach(finished)
            return state.registry.cycle(of: operation)
        }
    }

    /// S33: the operations of the cycle `joiner` joining `holder` closes, once the edges through
    /// `finished` went (``QueueRegistry/detach(_:)``).
    func cycle(
        joining joiner: ConditionalOperation, to holder: ConditionalOperation,
        detaching finished: [Foundation.Operation]
    ) -> [Foundation.Operation] {
        state.withLock { state in
            state.registry.detach(finished)
            return state.registry.cycle(joining: joiner, to: holder)
        }
    }

    /// S27: the operation holding `key`, or `nil` and `operation` holds it from now on; the
    /// holder `finished` (seen finished, not forgotten yet) holds it no more.
    func coalescingHolder(
        of key: InFlightKeys.Key, for operation: ConditionalOperation,
        takingOverFrom finished: ConditionalOperation?
    ) -> (holder: ConditionalOperation, cycle: [Foundation.Operation])? {
        state.withLock { state in
            let found =
                if let finished {
                    state.registry.inFlightKeys.holder(of: key, takingOverFrom: finished, for: operation)
                } else {
                    state.registry.inFlightKeys.holder(of: key, orClaimFor: operation)
                }
            guard let holder = found else { return nil }
            return (holder, state.registry.cycle(joining: operation, to: holder))
        }
    }
}
