import Foundation

/// The life of one operation (a `ConditionalOperation`) as a value without side effects, in a
/// module of its own: its state is written here alone, and the public module reaches it through
/// its events. Generic over the types it stores of that module (``OperationMachineHost``), and
/// `@inlinable`, so that the public module runs it specialised, as if it were its own.
///
/// Its ``Phase`` carries what each phase needs (`+PhaseData`), so an impossible combination cannot
/// be written down. Every event is a `mutating func` whose body is one `switch` over the phase and
/// which returns its own action, declared just above it; the operation runs the action once it
/// unlocked. An event that cannot happen in a phase stops the process naming both.
///
/// The events are grouped by concern: configuration and the steps the events share here,
/// admission and readiness in `+Readiness` (a dependency added once ready in `+LateDependencies`,
/// KVO announcements in `+Announcements`), starting to finishing in `+Running`, the cancel in
/// `+Cancellation`; the vocabulary they share is in `+Actions`. Beside it, each concern's value:
/// `+Outcome` (errors, whether a cancel took effect), `+Listeners`, `+Admission`,
/// ``ReadinessAnnouncements`` (Foundation's cached `isReady`) and ``EffectQueue`` (S1).
public struct OperationStateMachine<Host: OperationMachineHost> {
    /// Where the operation is, with the data of that phase.
    ///
    /// The phases before it is launched carry what its callers asked (``Asked``: `start()`, an
    /// early `finish`); `initialized` and `pending` also what Foundation's count of its
    /// dependencies is worth (``DependencyCount``), and the phases past them both with a
    /// dependency added since, in one byte (``Passed``); `joining` what was asked alone (it waits
    /// for no dependency). From `executing` on it was started, and a finish finishes.
    public enum Phase: Sendable {
        /// Not yet admitted by a queue, a `start()` or a readiness query, with the dependencies
        /// Foundation does not list it in yet (``deferDependency(_:)``).
        case initialized(Asked, DependencyCount, [Foundation.Operation])
        /// Admitted: waiting for its dependencies, and for those its conditions add (S3).
        case pending(ConditionDependencies, Asked, DependencyCount)
        /// Every dependency finished: the conditions answer (S2).
        case evaluating(Evaluation, Passed)
        /// Every condition passed: waiting for its exclusivity categories (S7).
        case acquiring(Acquisition, Passed)
        /// S27: added with a coalescing key while an operation of its class with that key was
        /// unfinished on its queue, it waits for that one, neither its dependencies nor its
        /// conditions, and becomes ready once that one finished, to finish as it did.
        case joining(Asked)
        /// `isReady` is `true`. Once started it executes, unless it was cancelled, finished early,
        /// or its conditions said otherwise (``Verdict``).
        case ready(Verdict, Passed)
        case executing(Execution)
        /// Started without executing, it lets what it runs finish first (S11), then finishes.
        /// `finishRequested`: a `finish` came (S6: the first one wins).
        case draining(Ending, finishRequested: Bool)
        /// The `finished(errors:)` hook and `operationDidFinish` run; `isFinished` flips last.
        case finishing(Ending, thread: ThreadIdentity)
        case finished(Ending)
    }

    // Stored in every operation, in an order that leaves no padding (the memory target counts
    // bytes per operation): words and `listeners` (40), then `outcome` (9 bytes) with
    // `announcements` (7) after it, `phase` (18) with the single bytes after it, and `effects` (19)
    // last: 131 bytes, 136 allocated (`MachineLayoutTests`). Every field is internal to this module, written here or by its concern's value's
    // own methods: the public module reaches them through the events and reads them through the
    // accessors beside them. No field has an initial value: the initialiser assigns each, so
    // that the public module runs it specialised.

    /// The categories its conditions declare, whether or not they were acquired yet.
    @inlinable public var categories: Set<String> { declaredCategories }
    @usableFromInline var declaredCategories: Set<String>
    /// S7 in groups: the operation running this one as its child (a `GroupOperation`, a
    /// `RetryOperation`); a category it holds is requested in its scope, see
    /// `ExclusivityController.scoped(_:under:)`; a child not admitted yet names it in its
    /// diagnosis while it waits for it (S31). Weak: a child never keeps its parent alive.
    @inlinable public var exclusivityParent: Host.Operation? { parent }
    @usableFromInline weak var parent: Host.Operation?
    /// Observers, waiters, what the event sinks are to be told (`+Listeners`).
    @usableFromInline var listeners: Listeners
    /// The owning queue and the conditions waited on (`+Admission`).
    @usableFromInline var admission: Admission
    /// The errors, and whether a cancel took effect (`+Outcome`).
    @usableFromInline var outcome: Outcome
    @usableFromInline var announcements: ReadinessAnnouncements
    /// Written by ``enter(_:)`` alone.
    @usableFromInline var phase: Phase
    /// S11: an operation that runs others (a `GroupOperation`) lets them finish before it does
    /// when it does not execute.
    @usableFromInline var drainsBeforeFinishing: Bool
    @usableFromInline var listenerMarks: ListenerMarks
    @usableFromInline var admissionMarks: AdmissionMarks
    /// What the phase entered in this event records that the machine does not read itself (`+Stamp`).
    @usableFromInline var stampRequest: StampRequest
    @usableFromInline var effects: EffectQueue

    /// An operation just made: `initialized`, nothing asked, no listener.
    @inlinable public init() {
        self.declaredCategories = []
        self.listeners = Listeners()
        self.admission = Admission()
        self.outcome = Outcome()
        self.announcements = ReadinessAnnouncements()
        self.phase = Phase.initialized([], .counted, [])
        self.drainsBeforeFinishing = false
        self.listenerMarks = ListenerMarks()
        self.admissionMarks = AdmissionMarks()
        self.stampRequest = StampRequest()
        self.effects = EffectQueue()
    }

    /// The public projection of ``phase``.
    @inlinable public var state: OperationState {
        switch phase {
        case .initialized: .initialized
        case .pending: .pending
        case .joining: .pending
        case .evaluating, .acquiring: .evaluatingConditions
        case .ready, .draining: .ready
        case .executing: .executing
        case .finishing: .finishing
        case .finished: .finished
        }
    }

    /// `true` once the operation finished with at least one error.
    @inlinable public var failed: Bool { state >= .finishing && !errors.isEmpty }

    /// `mutating` for the same reason as ``settledReadiness()``: every KVO notification asks it.
    /// `false` until the start was announced, so that it changes between the announcement's
    /// `willChangeValue` and `didChangeValue` (``startAnnounced()``).
    @inlinable public mutating func isExecuting() -> Bool {
        switch phase {
        case .executing: !effects.holdsStart
        case .finishing(let ending, _): ending.wasLaunched && !effects.holdsStart
        case .initialized, .pending, .evaluating, .acquiring, .joining, .ready, .draining, .finished: false
        }
    }

    /// A condition skipped it (S17): known once it was started.
    @inlinable public var isSkipped: Bool {
        switch phase {
        case .draining(let ending, _), .finishing(let ending, _), .finished(let ending): ending == .skipped
        case .initialized, .pending, .evaluating, .acquiring, .joining, .ready, .executing: false
        }
    }

    /// What its callers asked of it: from `executing` on, it was started.
    @inlinable public var asked: Asked {
        switch phase {
        case .initialized(let asked, _, _), .pending(_, let asked, _), .joining(let asked): asked
        case .evaluating(_, let passed), .acquiring(_, let passed), .ready(_, let passed): passed.asked
        case .draining(_, let finishRequested): finishRequested ? [.start, .finish] : .start
        case .executing, .finishing, .finished: .start
        }
    }

    @inlinable public var isStartRequested: Bool { asked.contains(.start) }
    @inlinable public var isFinishRequested: Bool { asked.contains(.finish) }

    /// Every write of ``phase``, a new one or new data of the same one: the event sinks hear of a
    /// change of the public state it makes.
    ///
    /// Inlined: the phase is then written in place, as an assignment would, not copied through a
    /// call (the no-op operation's cost).
    @inline(__always)
    @inlinable mutating func enter(_ next: Phase) {
        phase = next
        if hasEventSinks { noteState(state) }
    }

    /// Records what a caller asked in the phase, which must be one before the operation was
    /// launched, or `draining` for a finish.
    @inlinable mutating func record(_ request: Asked) {
        switch phase {
        case .initialized(let asked, let count, let deferred):
            enter(.initialized(asked.union(request), count, deferred))
        case .pending(let stage, let asked, let count): enter(.pending(stage, asked.union(request), count))
        case .evaluating(let evaluation, var passed):
            passed.asked.formUnion(request)
            enter(.evaluating(evaluation, passed))
        case .acquiring(let acquisition, var passed):
            passed.asked.formUnion(request)
            enter(.acquiring(acquisition, passed))
        case .joining(let asked): enter(.joining(asked.union(request)))
        case .ready(let verdict, var passed):
            passed.asked.formUnion(request)
            enter(.ready(verdict, passed))
        case .draining(let ending, _) where request == .finish:
            enter(.draining(ending, finishRequested: true))
        case .draining, .executing, .finishing, .finished:
            fatalError("record(\(request)) in phase \(phase): it was started")
        }
    }

    // MARK: Configuration

    public enum AddConditionAction: Equatable, Sendable {
        case added
        /// Cancelled before its conditions were evaluated: they would never be asked.
        case ignored
        /// Conditions were already evaluated or asked for their dependencies: a misuse (S13).
        case misuse
    }

    /// A condition to evaluate, and the categories to acquire once it passed. `nil`: categories
    /// alone, those of a condition that is always satisfied and has no dependency (`MutuallyExclusive`).
    @inlinable public mutating func addCondition(_ condition: (Host.Condition)?, categories new: Set<String>)
        -> AddConditionAction
    {
        switch phase {
        case .initialized, .pending(.unasked, _, _):
            // Nothing was asked of the conditions yet.
            if let condition { admission.add(condition) }
            if declaredCategories.isEmpty {
                declaredCategories = new  // the usual single condition with categories: no copy
            } else {
                declaredCategories.formUnion(new)
            }
            return .added
        case .pending(.registering, _, _), .pending(.asking, _, _), .pending(.askingAfterDependencies, _, _),
            .pending(.asked, _, _), .evaluating,
            .acquiring, .joining,
            .ready, .executing, .draining, .finishing, .finished:
            // A new condition's dependency would be missed, or its answer never asked for.
            return isCancelled ? .ignored : .misuse
        }
    }

    public enum AddObserverAction: Sendable {
        case added
        /// Already finished: tell the observer `operationDidFinish` with these errors at once.
        case tellFinished([any Error])
    }

    @inlinable public mutating func addObserver(_ observer: Host.Observer) -> AddObserverAction {
        switch phase {
        case .finished:
            // Too late to be told in order: it hears the end at once.
            return .tellFinished(errors)
        case .initialized, .pending, .evaluating, .acquiring, .joining, .ready, .executing, .draining,
            .finishing:
            // While finishing, `markFinished(notified:)` tells latecomers before `isFinished` flips.
            listeners.add(observer)
            listenerMarks.added(observer)
            return .added
        }
    }

    /// What runs once the operation finished and its observers returned.
    public enum Waiter: Sendable {
        /// A closure: a task awaiting the operation, a queue, a joiner.
        case run(@Sendable () -> Void)
        /// A dependent held for this operation (``ConditionalOperation/wakeWhenFinished(_:)``),
        /// named rather than captured in a closure: no allocation of its own, no weak reference.
        /// It keeps the dependent alive until this operation finished, or until the dependent,
        /// cancelled, takes it back (``removeWakes(of:)``).
        case wake(Host.Operation)
    }

    public enum AddWaiterAction: Equatable, Sendable {
        /// Registered: it runs once the operation finished and its observers returned.
        case registered
        /// The operation finished already: run it now.
        case runNow
    }

    /// Registers a waiter, unless the operation already finished.
    @inlinable public mutating func addWaiter(_ waiter: Waiter) -> AddWaiterAction {
        switch phase {
        case .finished:
            // Its end came: the waiter never waits for it.
            return .runNow
        case .initialized, .pending, .evaluating, .acquiring, .joining, .ready, .executing, .draining,
            .finishing:
            // Run by `markFinished`'s action, after the `operationDidFinish` observers.
            listeners.add(waiter)
            return .registered
        }
    }

    /// `dependent`, cancelled, waits for this operation no more: its wakes are taken out, for the
    /// caller to let go of outside the lock (a strong reference each).
    @inlinable public mutating func removeWakes(of dependent: Host.Operation) -> [Waiter] {
        listeners.removeWakes(of: dependent)
    }

    /// S7 in groups: `parent` runs this operation as its child (see ``exclusivityParent``). It
    /// shapes the category requests made from now on, its own and its children's.
    @inlinable public mutating func adoptParent(_ parent: Host.Operation) {
        self.parent = parent
    }

    /// Set once, by an operation that runs others (S11): see ``drainsBeforeFinishing``.
    @inlinable public mutating func drainBeforeFinishing() {
        drainsBeforeFinishing = true
    }

    // MARK: Shared steps

    /// Queues a callback; returns whether the caller becomes its deliverer (nobody was delivering).
    @inlinable mutating func queueEffect(_ effect: Effect) -> Bool {
        if hasEventSinks { noteCallback(effect) }
        return effects.append(effect)
    }

    /// Enters `finishing` and queues the finishing callback; returns whether the caller delivers it.
    @inlinable mutating func queueFinish(_ ending: Ending, thread: ThreadIdentity = .none) -> Bool {
        dropOfferedCancelErrors()
        enter(.finishing(ending, thread: thread))
        return queueEffect(finishEffect(ending))
    }

    @inlinable public func finishEffect(_ ending: Ending) -> Effect {
        // Releasing categories that were never requested is harmless: one rule for every path.
        .finish(outcome.errors, wasExecuting: ending.wasLaunched, releasesCategories: !categories.isEmpty)
    }

    /// Cancel or an early finish abandons the conditions still answering and a pending category
    /// request. The conditions themselves are let go of once finished (``markFinished(notified:)``).
    ///
    /// A request still being made (inline) is not withdrawn here: the requester makes it outside
    /// the lock, maybe only after this withdrawal and the finish's release both ran, and would then
    /// hold the categories for good. It gives them back itself once its request returned
    /// (``endInlineAcquisition(_:context:)``), granted or not. Returns whether the request
    /// waiting in line is to be withdrawn.
    @inlinable mutating func abandonConditions() -> Bool {
        guard case .acquiring(let acquisition, _) = phase, !acquisition.isInline else { return false }
        return true  // withdraw the request waiting in line
    }

    /// Started and ready: execute, or finish (or drain) without executing. A step the events
    /// that launch share (``Launch``), not an event: the runner never calls it.
    @inlinable mutating func launch() -> Launch {
        guard case .ready(let verdict, _) = phase else {
            fatalError("launch in phase \(phase): only a ready operation launches")
        }
        if isCancelled || isFinishRequested || verdict != .execute {
            // A cancel or an early finish beats a skip: the operation did not have nothing to do.
            let ending: Ending =
                isCancelled
                ? .cancelled
                : isFinishRequested || verdict == .conditionsFailed
                    ? .failed : verdict == .joined ? .joined : .skipped
            if drainsBeforeFinishing {
                enter(.draining(ending, finishRequested: isFinishRequested))
                return .drain
            }
            return .queued(deliverer: queueFinish(ending))
        }
        if !effects.isDelivering, !observersHearStart, !Host.postsExecutingKVO {
            // Nobody to tell of the start: execute at once on this thread, without a trip through
            // the effects (S1 holds: no callback is waiting to be delivered before it).
            enter(.executing(.called(thread: .none, since: .unstamped)))
            stampRequest.ask(.timeAndThread)
            return .executeNow
        }
        enter(.executing(.due(onAnotherThread: effects.isDelivering)))
        // Queued, so that `isExecuting` answers `false` until the start is announced
        // (``startAnnounced()``); at the head of an idle queue, its deliverer announces it at once.
        return .queued(deliverer: queueEffect(.didStart))
    }

    /// The operation became ready (not from `ready` itself): its owner hands it to Foundation, a
    /// `start()` already made launches it, or readiness is announced.
    @inlinable mutating func becomeReady(_ verdict: Verdict, context: Context) -> ReadyStep {
        // From waiting for its dependencies in one locked step: no read meanwhile answered `false`
        // of a later phase (``ReadinessAnnouncements/repairsOnRetest``).
        let fromDependencies: Bool
        switch phase {
        case .initialized, .pending: fromDependencies = true
        case .evaluating, .acquiring, .joining, .ready, .executing, .draining, .finishing, .finished:
            fromDependencies = false
        }
        enter(.ready(verdict, passed))
        if let owner = admission.owner {
            // An owner holds what is not ready yet, and hands it over unless it is adding it now.
            // It runs it itself: no answer Foundation stored matters (``ReadinessAnnouncements``).
            return .readiness(context.isAdmission ? .admitted : .handOver(owner))
        }
        if isStartRequested { return context.canLaunch ? .launched(launch()) : .launchLater }
        guard context.answersQuery else {
            announcements.becameReadyUnannounced()
            return .readiness(.announce)
        }
        let repaired = Host.retestsStoredReadiness && fromDependencies && passed.dependencyCount == .counted
        let later = announcements.becameReadyAfterAnsweringNotReady(repairedByRetest: repaired)
        return .readiness(later ? .reannounceLater : nil)
    }
}
