import Foundation

/// The life of one ``ConditionalOperation`` as a value with no side effects.
///
/// Every event is a `mutating func` that validates the transition and returns what the caller
/// must do once it has released the lock: evaluate conditions, announce readiness, or deliver
/// queued ``Effect``s. Effects (observer callbacks, KVO, `execute()`) are delivered by one thread
/// at a time, in the order they were queued, so callbacks never overlap (S1); the thread that
/// queues an effect while nobody delivers becomes the deliverer and drains the queue.
///
/// The vocabulary of events and actions is in `OperationStateMachine+Actions.swift`.
struct OperationStateMachine {
    typealias State = ConditionalOperation.State

    // Word-sized fields first, then the single bytes: the machine is stored in every operation.
    private(set) var errors: [any Error] = []
    private(set) var observers = ObserverList()
    /// The `ConditionalOperationQueue` the operation was added to, until it finished: produced
    /// operations go there (S10).
    private(set) var owner: ConditionalOperationQueue?
    private var conditions: [any OperationCondition] = []
    private var categories: Set<String> = []
    private var conditionAnswered: [Bool] = []
    private var waiters: [CheckedContinuation<Void, Never>] = []
    /// S7 in groups: the operation running this one as its child (a `GroupOperation`, a
    /// `RetryOperation`). A category it holds is requested in its scope instead, see
    /// `ExclusivityController.scoped(_:under:)`. Weak: a child never keeps its parent alive.
    private(set) weak var exclusivityParent: ConditionalOperation?
    private var effects = EffectQueue()
    /// The thread running `execute()` synchronously, for `produceOperation` on a plain queue.
    private var executingThread = ThreadIdentity.none
    private var unansweredConditions: Int32 = 0
    /// Changes whenever the library may add dependencies (condition dependencies): an answer of
    /// Foundation's `isReady` read before that is stale.
    private var dependencyEpoch: UInt32 = 0
    /// Every yes-or-no fact of the machine, one bit each (the machine is stored in every
    /// operation): see the properties of the same names below.
    private var flags: Flags = []

    private struct Flags: OptionSet {
        let rawValue: UInt32
        static let hasAnnouncedReadiness = Flags(rawValue: 1 << 0)
        static let isReannouncePending = Flags(rawValue: 1 << 1)
        static let isCancelled = Flags(rawValue: 1 << 2)
        static let isStartRequested = Flags(rawValue: 1 << 3)
        static let isHeldByOwner = Flags(rawValue: 1 << 4)
        static let isBeingReleased = Flags(rawValue: 1 << 5)
        static let isSettlingInline = Flags(rawValue: 1 << 6)
        static let isAcquiringCategories = Flags(rawValue: 1 << 7)
        static let holdsCategories = Flags(rawValue: 1 << 8)
        static let hasRequestedCategories = Flags(rawValue: 1 << 9)
        static let conditionsFailed = Flags(rawValue: 1 << 10)
        static let isFinishRequested = Flags(rawValue: 1 << 11)
        static let didExecute = Flags(rawValue: 1 << 12)
        static let isExecuteCalled = Flags(rawValue: 1 << 13)
        static let isExecuteDue = Flags(rawValue: 1 << 14)
        static let executesOnAnotherThread = Flags(rawValue: 1 << 15)
        static let isDelivering = Flags(rawValue: 1 << 16)
        static let drainsBeforeFinishing = Flags(rawValue: 1 << 17)
        static let isDraining = Flags(rawValue: 1 << 18)
        static let hasAnsweredNotReady = Flags(rawValue: 1 << 19)
    }

    /// An `isReady` query was answered `false`. swift-corelibs-foundation caches the answer each
    /// query returns, in whatever order the querying threads store them: a `false` from one thread
    /// can land after the `true` of another that made the operation ready, and the queue then never
    /// starts it. Becoming ready inside a query then also announces it, from another thread.
    private var hasAnsweredNotReady: Bool {
        get { flags.contains(.hasAnsweredNotReady) }
        set { if newValue { flags.insert(.hasAnsweredNotReady) } else { flags.remove(.hasAnsweredNotReady) } }
    }

    /// Answers a query `false` (see ``hasAnsweredNotReady``).
    private mutating func notReady() -> Readiness {
        hasAnsweredNotReady = true
        return Readiness(isReady: false)
    }

    /// S11: an operation that runs others (a `GroupOperation`) and does not execute still lets
    /// them finish before it does: it drains instead of finishing at once.
    private var drainsBeforeFinishing: Bool {
        get { flags.contains(.drainsBeforeFinishing) }
        set {
            if newValue { flags.insert(.drainsBeforeFinishing) } else { flags.remove(.drainsBeforeFinishing) }
        }
    }

    /// Started without executing, it waits for ``drained(errors:)`` to finish.
    private var isDraining: Bool {
        get { flags.contains(.isDraining) }
        set { if newValue { flags.insert(.isDraining) } else { flags.remove(.isDraining) } }
    }

    private var hasAnnouncedReadiness: Bool {
        get { flags.contains(.hasAnnouncedReadiness) }
        set {
            if newValue { flags.insert(.hasAnnouncedReadiness) } else { flags.remove(.hasAnnouncedReadiness) }
        }
    }

    private var isReannouncePending: Bool {
        get { flags.contains(.isReannouncePending) }
        set { if newValue { flags.insert(.isReannouncePending) } else { flags.remove(.isReannouncePending) } }
    }

    private(set) var isCancelled: Bool {
        get { flags.contains(.isCancelled) }
        set { if newValue { flags.insert(.isCancelled) } else { flags.remove(.isCancelled) } }
    }

    private(set) var isStartRequested: Bool {
        get { flags.contains(.isStartRequested) }
        set { if newValue { flags.insert(.isStartRequested) } else { flags.remove(.isStartRequested) } }
    }

    /// Its owner keeps it out of Foundation's queue until it is ready (linear-time scheduling).
    private var isHeldByOwner: Bool {
        get { flags.contains(.isHeldByOwner) }
        set { if newValue { flags.insert(.isHeldByOwner) } else { flags.remove(.isHeldByOwner) } }
    }

    /// The operation is being deallocated: readiness queries must change nothing.
    private var isBeingReleased: Bool {
        get { flags.contains(.isBeingReleased) }
        set { if newValue { flags.insert(.isBeingReleased) } else { flags.remove(.isBeingReleased) } }
    }

    /// A caller is evaluating conditions or acquiring categories synchronously and will report
    /// the outcome itself: answers arriving meanwhile only record.
    private var isSettlingInline: Bool {
        get { flags.contains(.isSettlingInline) }
        set { if newValue { flags.insert(.isSettlingInline) } else { flags.remove(.isSettlingInline) } }
    }

    private var isAcquiringCategories: Bool {
        get { flags.contains(.isAcquiringCategories) }
        set {
            if newValue { flags.insert(.isAcquiringCategories) } else { flags.remove(.isAcquiringCategories) }
        }
    }

    private var holdsCategories: Bool {
        get { flags.contains(.holdsCategories) }
        set { if newValue { flags.insert(.holdsCategories) } else { flags.remove(.holdsCategories) } }
    }

    /// Once categories were requested, finishing releases them (releasing is idempotent).
    private var hasRequestedCategories: Bool {
        get { flags.contains(.hasRequestedCategories) }
        set {
            if newValue {
                flags.insert(.hasRequestedCategories)
            } else {
                flags.remove(.hasRequestedCategories)
            }
        }
    }

    private var conditionsFailed: Bool {
        get { flags.contains(.conditionsFailed) }
        set { if newValue { flags.insert(.conditionsFailed) } else { flags.remove(.conditionsFailed) } }
    }

    private var isFinishRequested: Bool {
        get { flags.contains(.isFinishRequested) }
        set { if newValue { flags.insert(.isFinishRequested) } else { flags.remove(.isFinishRequested) } }
    }

    private var didExecute: Bool {
        get { flags.contains(.didExecute) }
        set { if newValue { flags.insert(.didExecute) } else { flags.remove(.didExecute) } }
    }

    private var isExecuteCalled: Bool {
        get { flags.contains(.isExecuteCalled) }
        set { if newValue { flags.insert(.isExecuteCalled) } else { flags.remove(.isExecuteCalled) } }
    }

    /// `execute()` is due once the effects queued before it were delivered.
    private var isExecuteDue: Bool {
        get { flags.contains(.isExecuteDue) }
        set { if newValue { flags.insert(.isExecuteDue) } else { flags.remove(.isExecuteDue) } }
    }

    private var executesOnAnotherThread: Bool {
        get { flags.contains(.executesOnAnotherThread) }
        set {
            if newValue {
                flags.insert(.executesOnAnotherThread)
            } else {
                flags.remove(.executesOnAnotherThread)
            }
        }
    }

    private var isDelivering: Bool {
        get { flags.contains(.isDelivering) }
        set { if newValue { flags.insert(.isDelivering) } else { flags.remove(.isDelivering) } }
    }

    // swift-corelibs-foundation caches `isReady` and a caller can store a stale `false` after our
    // announcement: a query made during an announcement, beyond the announcement's own, or a query
    // made after it (the queue's re-test), calls for one more announcement.
    private var announcementsInProgress: UInt16 = 0
    private var queriesDuringAnnouncements: UInt16 = 0

    private(set) var state: State = .initialized
    private var conditionDependencies = ConditionDependencies.unasked

    private enum ConditionDependencies {
        case unasked
        /// A caller is asking the conditions and adding their dependencies.
        case asking
        case asked
    }

    /// `true` once the operation finished with at least one error.
    var failed: Bool { state >= .finishing && !errors.isEmpty }

    /// `mutating` for the same reason as ``settledReadiness()``: every KVO notification asks it.
    mutating func isExecuting() -> Bool { state == .executing || (state == .finishing && didExecute) }

    // MARK: Configuration

    mutating func addCondition(
        _ condition: any OperationCondition, categories newCategories: Set<String>
    ) -> AddConditionAction {
        let action = addCategories(newCategories)
        if case .added = action { conditions.append(condition) }
        return action
    }

    /// Categories without a condition to evaluate: those of a condition that is always satisfied
    /// and has no dependency (`MutuallyExclusive`), so only its categories are acquired.
    mutating func addCategories(_ newCategories: Set<String>) -> AddConditionAction {
        // Once condition dependencies were asked for, a new condition's dependency would be missed.
        if state >= .evaluatingConditions || conditionDependencies != .unasked {
            return isCancelled ? .ignored : .misuse
        }
        if categories.isEmpty {
            categories = newCategories  // the usual single condition with categories: no copy
        } else {
            categories.formUnion(newCategories)
        }
        return .added
    }

    /// The categories its conditions declare, whether or not they were acquired yet.
    var declaredCategories: Set<String> { categories }

    /// S7 in groups: `parent` runs this operation as its child (see ``exclusivityParent``).
    /// Refused (`false`) once the categories were requested: the request can't change any more.
    mutating func setExclusivityParent(_ parent: ConditionalOperation) -> Bool {
        guard !hasRequestedCategories, state < .finishing else { return false }
        exclusivityParent = parent
        return true
    }

    /// Set once, by an operation that runs others (S11): see ``drainsBeforeFinishing``.
    mutating func drainBeforeFinishing() {
        drainsBeforeFinishing = true
    }

    /// The operation started without executing and drained what it runs: it finishes with
    /// `newErrors` added to its own.
    mutating func drained(errors newErrors: [any Error]) -> Followup {
        guard isDraining, state == .ready else {
            preconditionFailure("drained(errors:) in state \(state) without draining")
        }
        isDraining = false
        errors.append(contentsOf: newErrors)
        state = .finishing
        return enqueueFinish(wasExecuting: false)
    }

    /// Adds an observer; returns the errors to report at once if the operation already finished.
    mutating func addObserver(_ observer: any OperationObserver) -> [any Error]? {
        if state == .finished { return errors }
        observers.append(observer)
        return nil
    }

    /// Registers a waiter; returns `false` if the operation already finished (resume at once).
    mutating func addWaiter(_ waiter: CheckedContinuation<Void, Never>) -> Bool {
        if state == .finished { return false }
        waiters.append(waiter)
        return true
    }

    // MARK: Readiness

    enum SettledReadiness {
        /// The answer, and nothing changes.
        case answer(Bool)
        /// Read whether every dependency finished, then make the query with that and `epoch`: one
        /// lock trip fewer than asking for it in the query.
        case needsDependencies(epoch: UInt32)
        /// Make the query.
        case query
    }

    /// The answer to an `isReady` query that changes nothing, or what the query needs.
    ///
    /// `mutating` only so that unoptimised builds (the test suite) read the machine in place
    /// instead of copying it: a plain queue asks this of every waiting operation on each pass.
    mutating func settledReadiness() -> SettledReadiness {
        if isBeingReleased { return .answer(state >= .ready) }
        switch state {
        case .initialized, .pending:
            return .needsDependencies(epoch: dependencyEpoch)
        case .evaluatingConditions:
            hasAnsweredNotReady = true
            return .answer(false)
        case .executing, .finishing, .finished:
            return .answer(true)
        case .ready where isStartRequested || !hasAnnouncedReadiness:
            return .answer(true)
        case .ready:
            return .query
        }
    }

    /// An `isReady` query. The first one that finds every dependency finished admits the operation.
    /// `dependenciesFinished` may be `nil` while the state tells whether it matters; `epoch` is the
    /// ``Readiness/dependencyEpoch`` it was read under, if it was asked for.
    mutating func queryReadiness(dependenciesFinished: Bool?, epoch: UInt32? = nil, context: Context)
        -> Readiness
    {
        switch state {
        case .initialized, .pending:
            guard let dependenciesFinished, epoch == nil || epoch == dependencyEpoch else {
                return Readiness(isReady: false, needsDependencies: true, dependencyEpoch: dependencyEpoch)
            }
            guard dependenciesFinished else { return notReady() }
            return passDependencies(context: context)
        case .evaluatingConditions:
            return notReady()
        case .ready:
            guard !isStartRequested else { return Readiness(isReady: true) }
            if announcementsInProgress > 0 {
                queriesDuringAnnouncements += 1
                return Readiness(isReady: true)
            }
            if hasAnnouncedReadiness && !isReannouncePending {
                isReannouncePending = true
                return Readiness(isReady: true, followup: .reannounceLater)
            }
            return Readiness(isReady: true)
        case .executing, .finishing, .finished:
            return Readiness(isReady: true)
        }
    }

    /// Every dependency finished: ask for condition dependencies (once), else evaluate the conditions.
    private mutating func passDependencies(context: Context) -> Readiness {
        if isFinishRequested || conditions.isEmpty && categories.isEmpty {
            return becomeReadyNow(context: context)
        }
        if conditions.isEmpty {  // categories alone: acquire them
            state = .evaluatingConditions
            return conditionsPassed(context: context)
        }
        switch conditionDependencies {
        case .unasked:
            conditionDependencies = .asking
            dependencyEpoch &+= 1
            state = .pending
            return Readiness(isReady: false, next: .askDependencies(conditions))
        case .asking:
            return notReady()
        case .asked:
            state = .evaluatingConditions
            let evaluated = conditions
            conditions = []  // released after evaluation (S2)
            conditionAnswered = Array(repeating: false, count: evaluated.count)
            unansweredConditions = Int32(evaluated.count)
            isSettlingInline = true
            return Readiness(isReady: false, next: .evaluate(evaluated))
        }
    }

    /// The condition dependencies were added as dependencies (and run).
    ///
    /// Whether they finished is read only after this: one finishing earlier met the `.asking`
    /// state, which changes nothing, and would otherwise be a wake-up lost for good.
    mutating func conditionDependenciesAdded() -> Readiness {
        conditionDependencies = .asked
        dependencyEpoch &+= 1
        guard state == .pending else { return Readiness(isReady: state >= .ready) }
        return Readiness(isReady: false, needsDependencies: true, dependencyEpoch: dependencyEpoch)
    }

    /// The conditions handed out by ``Step/evaluate(_:)`` were all asked; those that answered
    /// synchronously may have made the operation ready.
    mutating func endInlineEvaluation(context: Context) -> Readiness {
        isSettlingInline = false
        guard state == .evaluatingConditions else { return Readiness(isReady: state >= .ready) }
        guard unansweredConditions == 0 else { return Readiness(isReady: false) }
        return conditionsPassed(context: context)
    }

    /// The condition at `index` answered. Repeated or late answers are ignored (S2).
    mutating func conditionEvaluated(at index: Int, _ result: OperationConditionResult) -> Readiness {
        guard state == .evaluatingConditions, conditionAnswered.indices.contains(index),
            !conditionAnswered[index]
        else { return Readiness(isReady: state >= .ready) }
        conditionAnswered[index] = true
        unansweredConditions -= 1
        if case .failed(let error) = result {
            errors.appendConditionFailure(error)
            conditionsFailed = true
        }
        guard unansweredConditions == 0, !isSettlingInline else { return Readiness(isReady: false) }
        return conditionsPassed(context: .callback)
    }

    /// Every condition answered: acquire the categories if it will execute, else it is ready.
    private mutating func conditionsPassed(context: Context) -> Readiness {
        conditionAnswered = []  // every condition answered: later answers are ignored by state
        guard !conditionsFailed, !categories.isEmpty else { return becomeReadyNow(context: context) }
        isAcquiringCategories = true
        hasRequestedCategories = true
        isSettlingInline = true
        return Readiness(isReady: false, next: .acquire(categories, parent: exclusivityParent))
    }

    /// The categories requested by ``Step/acquire(_:)`` were granted, now or later.
    mutating func categoriesGranted() -> Readiness {
        guard state == .evaluatingConditions, isAcquiringCategories else {
            // Cancelled or finished while waiting: hand the categories on at once.
            return Readiness(isReady: state >= .ready, followup: .releaseCategories)
        }
        holdsCategories = true
        guard !isSettlingInline else { return Readiness(isReady: false) }
        return becomeReadyNow(context: .callback)
    }

    /// The request of ``Step/acquire(_:)`` returned; the categories may already be granted.
    mutating func endInlineAcquisition(context: Context) -> Readiness {
        isSettlingInline = false
        guard state == .evaluatingConditions else { return Readiness(isReady: state >= .ready) }
        guard holdsCategories else { return Readiness(isReady: false) }
        return becomeReadyNow(context: context)
    }

    mutating func beginAnnouncement() {
        announcementsInProgress += 1
        hasAnnouncedReadiness = true
    }

    /// Returns `true` when the announcement must be repeated.
    mutating func endAnnouncement() -> Bool {
        announcementsInProgress -= 1
        let repeatIt = queriesDuringAnnouncements >= 2 && state == .ready && !isStartRequested
        if repeatIt || announcementsInProgress == 0 { queriesDuringAnnouncements = 0 }
        return repeatIt
    }

    /// A re-announcement asked for by a query is due; returns whether it is still needed.
    mutating func reannouncementDue() -> Bool {
        isReannouncePending = false
        return state == .ready && !isStartRequested
    }

    // MARK: ConditionalOperationQueue

    enum EnqueueAction {
        /// Already in a queue or started: a misuse (S13).
        case misuse
        /// Held: ask these conditions for their dependencies (S3), add them, then report with
        /// ``conditionDependenciesAdded()`` (none: query readiness).
        case held(conditions: [any OperationCondition])
        /// Readiness queries made it ready before it was added: hand it to Foundation at once.
        case ready
    }

    /// Added to a `ConditionalOperationQueue`, which holds it until it is ready.
    /// `dependenciesFinished`: the queue saw every dependency finished.
    mutating func enqueue(on owner: ConditionalOperationQueue, dependenciesFinished: Bool) -> EnqueueAction {
        guard self.owner == nil, !isStartRequested, state < .executing else { return .misuse }
        self.owner = owner
        guard state < .ready else { return .ready }
        if dependenciesFinished, state == .initialized,
            isFinishRequested || conditions.isEmpty && categories.isEmpty
        {
            state = .ready  // nothing to wait for: the common case, in one step
            return .ready
        }
        isHeldByOwner = true
        if state == .initialized { state = .pending }
        guard conditionDependencies == .unasked, !conditions.isEmpty else { return .held(conditions: []) }
        // Asking until every condition dependency was added: one finishing before the next is
        // added must not let the conditions be evaluated (``conditionDependenciesAdded``).
        conditionDependencies = .asking
        dependencyEpoch &+= 1
        return .held(conditions: conditions)
    }

    /// The owner found the operation in a dependency cycle: it will finish with `error`, without
    /// executing. Every operation of the cycle is marked before any is released
    /// (``releaseFromCycle()``): one finishing first must not let another execute.
    mutating func markInCycle(_ error: any Error) {
        guard state < .executing, !isFinishRequested else { return }
        isFinishRequested = true
        errors.append(error)
    }

    /// Makes an operation marked by ``markInCycle(_:)`` ready whatever its dependencies.
    mutating func releaseFromCycle() -> Followup {
        guard state < .ready, isFinishRequested else { return [] }
        return abandonConditions().union(becomeReady(context: .cancel))
    }

    /// The operation is being deallocated (its dependencies are about to be removed).
    mutating func beginRelease() {
        isBeingReleased = true
    }

    // MARK: Running

    mutating func start() -> StartAction {
        guard !isStartRequested, state < .executing else { return .misuse }
        isStartRequested = true
        switch state {
        case .initialized, .pending:
            state = .pending
            return .admit
        case .evaluatingConditions:
            return .wait
        default:
            return .launched(launch())
        }
    }

    /// Launches an operation whose `start()` came before it was ready (see ``Followup/launchLater``).
    mutating func launchDeferred() -> Followup {
        guard state == .ready, isStartRequested else { return [] }
        return launch()
    }

    mutating func cancel(finishesWhenCancelled: Bool) -> Followup? {
        guard state < .finishing, !isCancelled else { return nil }
        isCancelled = true
        var followup = enqueue(.didCancel(errors))
        if isDraining {
            return followup  // started without executing: it finishes once drained
        } else if state < .executing {
            followup.formUnion(abandonConditions())
            followup.formUnion(becomeReady(context: .cancel))
        } else if finishesWhenCancelled {
            state = .finishing
            followup.formUnion(enqueueFinish(wasExecuting: true))
        }
        return followup
    }

    /// Records the error of a `cancel(with:)`; `false` once finishing began (it changes nothing).
    mutating func recordCancelError(_ error: any Error) -> Bool {
        guard state < .finishing else { return false }
        errors.append(error)
        return true
    }

    enum FinishAction {
        case finishing(Followup)
        /// Finish before start: errors recorded, the operation finishes without executing once started.
        case deferred(Followup)
        /// The operation already finished or finishing was already requested (S6).
        case ignored
    }

    mutating func finish(errors newErrors: [any Error]) -> FinishAction {
        switch state {
        case .finishing, .finished:
            return .ignored
        case .executing:
            if !newErrors.isEmpty { errors.append(contentsOf: newErrors) }
            state = .finishing
            return .finishing(enqueueFinish(wasExecuting: true))
        default:
            guard !isFinishRequested else { return .ignored }
            isFinishRequested = true
            if !newErrors.isEmpty { errors.append(contentsOf: newErrors) }
            guard state == .evaluatingConditions else { return .deferred([]) }
            return .deferred(abandonConditions().union(becomeReady(context: .cancel)))
        }
    }

    /// Queues `operation`'s `didProduce`, unless the operation was cancelled or finishing began
    /// (too late to tell observers: the operation is only run).
    mutating func produce(_ operation: Foundation.Operation) -> Followup {
        // S1: `didProduce` only before `didCancel`; a cancelled operation that still runs
        // (`finishesWhenCancelled == false`) has its produced operations run, untold.
        guard state < .finishing, !isCancelled else { return [] }
        return enqueue(.didProduce(operation))
    }

    // MARK: Delivery

    /// The next effect to deliver with the observers to tell, or `nil` when the deliverer is done.
    /// `thread` is the deliverer's, which runs `execute()` if that is next.
    mutating func nextEffect(thread: ThreadIdentity? = nil) -> (
        effect: Effect, observers: ObserverList
    )? {
        while true {
            if let effect = effects.popFirst() { return (effect, observers) }
            guard isExecuteDue else { break }
            isExecuteDue = false
            // a didStart observer finished it (S1)
            guard state == .executing, !isExecuteCalled else { break }
            if isCancelled {
                // Cancelled by a didStart observer while `finishesWhenCancelled` is false: execute()
                // must not run (S1), and nothing else would finish the operation.
                state = .finishing
                effects.append(finishEffect(wasExecuting: true))
                continue
            }
            isExecuteCalled = true
            isDelivering = false
            if !executesOnAnotherThread, let thread { executingThread = thread }
            return (.execute(onAnotherThread: executesOnAnotherThread), ObserverList())
        }
        isDelivering = false
        return nil
    }

    /// The queue to add an operation produced now: the owner's, else the one that started it when
    /// called from the thread running `execute()` (where `OperationQueue.current` is that queue).
    func producerQueue(thread: ThreadIdentity) -> (queue: OperationQueue?, askCurrent: Bool) {
        (owner, owner == nil && executingThread == thread)
    }

    /// Observers added after `count` of them had been told, while finishing.
    private func observers(after count: Int) -> [any OperationObserver] {
        Array(observers.dropFirst(count))
    }

    enum FinishedAction {
        /// Observers were added while the others heard `operationDidFinish`: tell them, then ask again.
        case tell([any OperationObserver])
        /// `isFinished` is `true`: resume the waiters and tell the owner. `released` is what the
        /// machine let go of: the caller drops it once the lock is released, since an operation's
        /// deinit takes a lock that may be this one (``LockTable``).
        case finished(
            waiters: [CheckedContinuation<Void, Never>], owner: ConditionalOperationQueue?,
            released: (ObserverList, [any OperationCondition]))
    }

    /// The finishing effect was delivered to `notified` observers: `isFinished` becomes `true`,
    /// unless observers were added meanwhile (they hear `operationDidFinish` before it flips).
    mutating func markFinished(notified: Int) -> FinishedAction {
        let latecomers = observers(after: notified)
        guard latecomers.isEmpty else { return .tell(latecomers) }
        let action = FinishedAction.finished(
            waiters: waiters, owner: owner, released: (observers, conditions))
        state = .finished
        isDelivering = false  // the finish effect is the last: its deliverer is done
        isExecuteDue = false
        observers = ObserverList()
        conditions = []
        owner = nil
        executingThread = .none
        waiters = []
        return action
    }

    // MARK: Helpers

    private mutating func enqueue(_ effect: Effect) -> Followup {
        effects.append(effect)
        guard !isDelivering else { return [] }
        isDelivering = true
        return .deliver
    }

    /// Cancel or an early finish abandons pending conditions and a pending category request.
    /// The conditions themselves are let go of once finished (``markFinished(notified:)``): not
    /// here, under the lock, where the last reference to what they hold may go.
    private mutating func abandonConditions() -> Followup {
        conditionAnswered = []
        unansweredConditions = 0
        guard isAcquiringCategories, !holdsCategories else { return [] }
        isAcquiringCategories = false
        return .releaseCategories
    }

    private func finishEffect(wasExecuting: Bool) -> Effect {
        .finish(errors, wasExecuting: wasExecuting, releasesCategories: hasRequestedCategories)
    }

    private mutating func enqueueFinish(wasExecuting: Bool) -> Followup {
        enqueue(finishEffect(wasExecuting: wasExecuting))
    }

    private mutating func becomeReady(context: Context) -> Followup {
        state = .ready
        if isHeldByOwner {
            isHeldByOwner = false
            return .handToQueue
        }
        if isStartRequested { return context.canLaunch ? launch() : .launchLater }
        guard context.answersQuery else { return .announceReady }
        guard hasAnsweredNotReady, !isReannouncePending else { return [] }
        isReannouncePending = true  // not now: Foundation may hold its queue's lock while it asks
        return .reannounceLater
    }

    private mutating func becomeReadyNow(context: Context) -> Readiness {
        let followup = becomeReady(context: context)
        return Readiness(isReady: state >= .ready, followup: followup)
    }

    private mutating func launch() -> Followup {
        if isCancelled || conditionsFailed || isFinishRequested {
            if drainsBeforeFinishing {
                isDraining = true
                return .drain
            }
            state = .finishing
            return enqueueFinish(wasExecuting: false)
        }
        state = .executing
        didExecute = true
        if !isDelivering, observers.count == 0, !OperationStateMachine.postsExecutingKVO {
            // Nobody to tell of the start: execute at once on this thread, without a trip through
            // the effects (S1 holds: there is no callback to order it against).
            isExecuteCalled = true
            executingThread = ThreadIdentity.current
            return .executeNow
        }
        let othersDeliver = isDelivering
        isExecuteDue = true
        executesOnAnotherThread = othersDeliver
        return enqueue(.didStart)
    }

    /// Whether the start is announced by KVO `isExecuting`. Apple's Foundation needs it;
    /// swift-corelibs-foundation only records it for its own `start()`, which a
    /// `ConditionalOperation` replaces, and pays locks and string comparisons for each notification.
    static var postsExecutingKVO: Bool {
        #if canImport(ObjectiveC)
            true
        #else
            false
        #endif
    }
}
