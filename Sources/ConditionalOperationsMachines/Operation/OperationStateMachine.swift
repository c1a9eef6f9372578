import Foundation

/// The life of one ``ConditionalOperation`` as a value without side effects.
///
/// Its ``Phase`` carries what each phase needs, so an impossible combination cannot be written
/// down. Every event is a `mutating func` whose body is one `switch` over the phase and which
/// returns its own action, declared just above it; the operation runs the action once it unlocked (`ConditionalOperation+Runner.swift`). An event that cannot happen in a phase stops the
/// process naming both.
///
/// The events are grouped by concern: configuration here, admission and readiness in
/// `+Readiness` (a dependency added once ready in `+LateDependencies`), starting to finishing in
/// `+Running` (what a cancel leaves in `+Cancellation`); the vocabulary they share is in `+Actions`.
/// Beside it: ``ReadinessAnnouncements`` answers Foundation's cached `isReady`, and ``EffectQueue``
/// serialises callbacks (S1).
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

    /// What was asked of an operation not launched yet, from outside.
    public struct Asked: OptionSet, Sendable {
        public let rawValue: UInt8

        @inlinable public init(rawValue: UInt8) {
            self.rawValue = rawValue
        }

        /// `start()` was called (S13: once).
        @inlinable public static var start: Asked { Asked(rawValue: 1 << 0) }
        /// `finish` was called before executing (S6), or the operation is in a dependency cycle
        /// (S9): it finishes without executing once started.
        @inlinable public static var finish: Asked { Asked(rawValue: 1 << 1) }
    }

    /// Whether Foundation's count of unfinished dependencies answers for the operation.
    public enum DependencyCount: UInt8, Sendable {
        case counted
        /// A dependency was removed unfinished while waited for: swift-corelibs-foundation counts
        /// it still, so the dependencies themselves are read (`+LateDependencies`).
        case stale
    }

    /// S9: a dependency added once the operation passed its own (`+LateDependencies`), and what
    /// Foundation's count is worth: stale once a dependency was removed unfinished while waited
    /// for, before the operation passed its dependencies or since.
    public struct LateDependency: Equatable, Sendable {
        @usableFromInline var count: DependencyCount
        @usableFromInline var awaited: Awaited

        public enum Awaited: UInt8, Sendable {
            case none
            /// It starts only once Foundation says every dependency finished.
            case awaited
            /// Awaited, and its owner's start came first and was declined: the owner is handed
            /// the operation again once the dependency finished.
            case startDeclined
        }

        /// Passed its dependencies with Foundation's count worth `count`, none added since.
        @inlinable public init(_ count: DependencyCount, awaited: Awaited = .none) {
            self.count = count
            self.awaited = awaited
        }

        /// The dependencies added late finished, or a cancel let go of them: none is awaited,
        /// and Foundation's count answers again. (Not `none`: beside an optional, that
        /// reads as `nil`.)
        @inlinable public static var cleared: LateDependency { LateDependency(.counted) }
    }

    /// What a phase past the operation's own dependencies carries until it is launched: what its
    /// callers asked, what Foundation's count is worth and a dependency added since. One byte:
    /// beside the answers of `evaluating`, a second one would make every operation 8 bytes larger.
    public struct Passed: Equatable, Sendable {
        /// ``Asked`` in the low 2 bits, then ``LateDependency/count`` in 1 and
        /// ``LateDependency/awaited`` in 2.
        @usableFromInline var bits: UInt8

        @inlinable public init(_ asked: Asked, _ late: LateDependency) {
            // A third request would have to move the other bits up.
            assert(asked.rawValue & ~0b11 == 0, "Passed holds two requests: \(asked)")
            bits = asked.rawValue | (late.count == .stale ? 1 << 2 : 0) | late.awaited.rawValue << 3
        }

        @inlinable public var asked: Asked {
            get { Asked(rawValue: bits & 0b11) }
            set { self = Passed(newValue, late) }
        }

        /// A dependency added late is awaited: read from the byte itself, since every start and
        /// every readiness query of a ready operation asks.
        @inlinable public var awaitsLateDependency: Bool { bits >> 3 != 0 }

        /// What Foundation's count is worth, read from the byte itself (every lock trip's hint asks).
        @inlinable public var dependencyCount: DependencyCount { bits & 1 << 2 == 0 ? .counted : .stale }

        @inlinable public var late: LateDependency {
            get {
                LateDependency(
                    bits & 1 << 2 == 0 ? .counted : .stale,
                    awaited: LateDependency.Awaited(rawValue: bits >> 3)!)
            }
            set { self = Passed(asked, newValue) }
        }
    }

    /// How far the conditions' own dependencies (S3) are: each step makes a readiness answer read
    /// before it stale.
    public enum ConditionDependencies: UInt8, Sendable {
        /// Its own dependencies, held back until admission, are being added to Foundation: its
        /// answer is not whole yet (``deferDependency(_:)``). The conditions are unasked.
        case registering
        case unasked
        /// A caller is asking the conditions and adding their dependencies: one finishing
        /// meanwhile must not let the conditions be evaluated.
        case asking
        /// The same, every dependency of the operation's own having finished: if the conditions
        /// add none, they are evaluated without reading the dependencies again.
        case askingAfterDependencies
        case asked
    }

    /// What the conditions said, once they all answered.
    public enum Verdict: Sendable {
        case execute
        /// A condition failed (S2): it finishes without executing, with the failures.
        case conditionsFailed
        /// A condition skipped it and none failed (S17): it finishes without executing or error.
        case skipped
        /// The operation it joined finished (S27): it finishes as that one did, without executing.
        case joined
    }

    public struct Evaluation: Sendable {
        /// A repeated or late answer is ignored (S2).
        @usableFromInline var answered: AnsweredConditions
        @usableFromInline var failed: Bool
        @usableFromInline var skipped: Bool

        @inlinable public var verdict: Verdict { failed ? .conditionsFailed : skipped ? .skipped : .execute }
        /// The caller evaluating them reports the outcome itself: answers meanwhile only record.
        @usableFromInline var isInline: Bool
        /// Since when they are being evaluated, for diagnostics (``stamp(thread:now:)``).
        @usableFromInline var began: Uptime

        @inlinable public init(count: Int) {
            self.failed = false
            self.skipped = false
            self.isInline = true
            self.began = Uptime.unstamped
            answered = AnsweredConditions(count: count)
        }
    }

    public struct Acquisition: Sendable {
        /// The caller requesting them reports the outcome itself: a grant meanwhile only records.
        @usableFromInline var isInline: Bool
        @usableFromInline var isGranted: Bool
        /// Since when the categories are requested, for diagnostics (``stamp(thread:now:)``).
        @usableFromInline var began: Uptime

        @inlinable init() {
            self.isInline = true
            self.isGranted = false
            self.began = Uptime.unstamped
        }
    }

    public enum Execution: Sendable {
        /// `execute()` is due once the callbacks queued before it were delivered, on this thread
        /// or, when another one is delivering them, on a thread of its own.
        case due(onAnotherThread: Bool)
        /// `execute()` was called `since` then, on `thread` if it runs on the thread that started
        /// it (``stamp(thread:now:)``).
        case called(thread: ThreadIdentity, since: Uptime)
        /// Cancelled or finished before `execute()` was called, which therefore is not (S1): an
        /// operation that runs others lets them finish first (S11), then finishes.
        /// `finishRequested`: a `finish` came (S6: the first one wins).
        case draining(finishRequested: Bool)
    }

    // Stored in every operation, in an order that leaves no padding (the memory target counts
    // bytes per operation): words, then `outcome` (9 bytes) with `announcements` (7) after it,
    // `phase` (18) with the single bytes after it, and `effects` (25) last: 161 bytes, 168
    // allocated. Every field is `private(set)`, written here, or a value of its concern whose
    // fields are `private(set)`, written by its own methods alone: the events reach them through
    // those methods, and read them through the accessors beside them.

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
    /// The errors, and whether a cancel took effect (`+Cancellation`).
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
    @inlinable public mutating func enter(_ next: Phase) {
        phase = next
        if hasEventSinks { noteState(state) }
    }

    /// Records what a caller asked in the phase, which must be one before the operation was
    /// launched, or `draining` for a finish.
    @inlinable public mutating func record(_ request: Asked) {
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
    @inlinable public mutating func queueEffect(_ effect: Effect) -> Bool {
        if hasEventSinks { noteCallback(effect) }
        return effects.append(effect)
    }

    /// Enters `finishing` and queues the finishing callback; returns whether the caller delivers it.
    @inlinable public mutating func queueFinish(_ ending: Ending, thread: ThreadIdentity = .none) -> Bool {
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
    @inlinable public mutating func abandonConditions() -> Bool {
        guard case .acquiring(let acquisition, _) = phase, !acquisition.isInline else { return false }
        return true  // withdraw the request waiting in line
    }

    /// The operation became ready (not from `ready` itself): its owner hands it to Foundation, a
    /// `start()` already made launches it, or readiness is announced.
    @inlinable public mutating func becomeReady(_ verdict: Verdict, context: Context) -> ReadyStep {
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
        return .readiness(announcements.becameReadyAfterAnsweringNotReady() ? .reannounceLater : nil)
    }
}
