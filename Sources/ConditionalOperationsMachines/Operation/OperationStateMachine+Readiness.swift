import Foundation

/// Admission and the way to `ready`: dependencies, conditions (S2, S3), categories (S7).
extension OperationStateMachine {
    /// What a readiness event leaves to do. The steps are taken synchronously by the caller, which
    /// then reports with the event each names, until an answer comes.
    public enum ReadinessAction: Sendable {
        /// Whether the operation is ready now, and the work its becoming ready calls for.
        case answer(Bool, Followup)
        /// Read Foundation's own answer (every dependency finished) and query again with it and
        /// this stage: a change meanwhile makes that answer stale.
        case readDependencies(ConditionDependencies)
        /// Add these dependencies, held back until admission, to Foundation, then
        /// ``dependenciesRegistered(context:)``.
        case registerDependencies([Foundation.Operation])
        /// Ask each condition for its dependency (S3), add them, then
        /// ``conditionDependenciesAdded(any:)``.
        case askConditionDependencies([Host.Condition])
        /// Evaluate the conditions, then ``endInlineEvaluation(context:)``.
        case evaluate([Host.Condition])
        /// Request the categories in the scope of `parent` (``exclusivityParent``), then
        /// ``endInlineAcquisition(_:context:)``.
        case acquire(Set<String>, parent: Host.Operation?)
    }

    public enum EnqueueAction: Sendable {
        /// Already in a queue, started or finished: a misuse (S13).
        case misuse
        /// Ready before it was added (readiness queries moved it): hand it to Foundation at once.
        case ready
        /// S27: it has a coalescing key: the queue looks for an operation to join, then joins it
        /// (``join(on:)``) or adds it again, the key looked up (`keyLookedUp`).
        case coalesce
        /// Held until ready: take this step towards readiness.
        case held(ReadinessAction)
    }

    /// Added to a `ConditionalOperationQueue`, which holds it until it is ready.
    /// `dependenciesFinished`: the queue saw every dependency finished.
    /// `keyLookedUp`: the queue looked up its coalescing key and found nothing to join (S27).
    @inlinable public mutating func enqueue(
        on queue: Host.Queue, dependenciesFinished: Bool, keyLookedUp: Bool = false
    ) -> EnqueueAction {
        guard owner == nil, !isStartRequested else { return .misuse }
        if !keyLookedUp, hasCoalescingEntry, joinsWhenAdded { return .coalesce }
        switch phase {
        case .initialized(let asked, let count, let deferred) where !deferred.isEmpty:
            // Held until its deferred dependencies were added to Foundation, at once.
            admission.admit(by: queue)
            enter(.pending(.registering, asked, count))
            return .held(.registerDependencies(deferred))
        case .initialized
        where dependenciesFinished && (isFinishRequested || conditions.isEmpty && categories.isEmpty):
            // Nothing to wait for: the common case, in one step. It goes through `pending` all the
            // same (S16 yields it): the sinks hear of it, though the phase never holds it.
            admission.admit(by: queue)
            if hasEventSinks { noteState(.pending) }
            enter(.ready(.execute, passed))
            return .ready
        case .initialized where !conditions.isEmpty, .pending(.unasked, _, _) where !conditions.isEmpty:
            // Their dependencies are asked for now and added to this queue (S3).
            admission.admit(by: queue)
            enterPending(.asking)
            return .held(.askConditionDependencies(conditions))
        case .initialized, .pending, .evaluating, .acquiring:
            // Held until ready, which hands it over; a readiness query may have admitted it already.
            admission.admit(by: queue)
            if case .initialized = phase { enterPending(.unasked) }
            return .held(
                stepTowardsReady(
                    dependenciesFinished: dependenciesFinished ? true : nil, stage: nil, context: .admission))
        case .ready:
            // Readiness queries made it ready before it was added.
            admission.admit(by: queue)
            return .ready
        case .joining, .executing, .draining, .finishing, .finished:
            // Joined (S27) or started: only a queue adding it or `start()` can move it there.
            return .misuse
        }
    }

    public enum SettledReadiness: Equatable, Sendable {
        /// The answer, and nothing changes.
        case answer(Bool)
        /// Read whether every dependency finished, then query with that and the stage: one lock
        /// trip fewer than asking for it in the query.
        case readDependencies(ConditionDependencies)
        /// Make the query.
        case query
    }

    /// The answer to an `isReady` query that changes nothing, or what the query needs.
    ///
    /// `mutating` only so that unoptimised builds (the test suite) read the machine in place
    /// instead of copying it: a plain queue asks this of every waiting operation on each pass.
    @inlinable public mutating func settledReadiness() -> SettledReadiness {
        if isDeallocating { return .answer(state >= .ready) }
        switch phase {
        case .initialized(_, _, let deferred) where !deferred.isEmpty:
            // Its deferred dependencies are added to Foundation first.
            return .query
        case .initialized:
            // Admitted by the first query that finds every dependency finished.
            return .readDependencies(.unasked)
        case .pending(let stage, _, _):
            // Waiting for its dependencies: Foundation knows.
            return .readDependencies(stage)
        case .evaluating, .acquiring, .joining:
            // Its conditions, categories or the operation it joined will tell (S27); the `false`
            // may be cached (``ReadinessAnnouncements``).
            announcements.answeredNotReady()
            return .answer(false)
        case .ready where announcements.isUnannounced && !isStartRequested:
            // Its announcement changes the answer (``ReadinessAnnouncements``).
            announcements.answeredNotReady()
            return .answer(false)
        case .ready(_, let passed) where passed.awaitsLateDependency && !isCancelled:
            // A dependency added since it was ready: Foundation knows (S9).
            return .readDependencies(.asked)
        case .ready where readsFoundationWhileReady:
            // A plain queue may have made it depend on a barrier block (``readsFoundationWhileReady``).
            return .readDependencies(.asked)
        case .ready where isStartRequested || !announcements.repairsOnQuery:
            // Nothing to announce again.
            return .answer(true)
        case .ready:
            // A re-test after an announcement, or of one its queue's re-test repairs: may call for
            // an announcement (``ReadinessAnnouncements``).
            return .query
        case .executing, .draining, .finishing, .finished:
            // Past ready: Foundation must never see it not ready again.
            return .answer(true)
        }
    }

    /// An `isReady` query. The first one that finds every dependency finished admits the operation.
    /// `dependenciesFinished` is `nil` until the phase says it matters; `stage` is the one it was
    /// read under (``ReadinessAction/readDependencies(_:)``), if it was asked for.
    @inlinable public mutating func queryReadiness(
        dependenciesFinished: Bool?, stage: ConditionDependencies? = nil, context: Context
    ) -> ReadinessAction {
        stepTowardsReady(dependenciesFinished: dependenciesFinished, stage: stage, context: context)
    }

    /// The step of a query (``queryReadiness(dependenciesFinished:stage:context:)``), which
    /// admission takes too: a step the events share, not an event.
    @inlinable mutating func stepTowardsReady(
        dependenciesFinished: Bool?, stage: ConditionDependencies?, context: Context
    ) -> ReadinessAction {
        switch phase {
        case .initialized(let asked, let count, let deferred) where !deferred.isEmpty:
            // Admitted: its deferred dependencies are added to Foundation before it answers.
            enter(.pending(.registering, asked, count))
            return .registerDependencies(deferred)
        case .initialized, .pending:
            // Waiting for dependencies: the answer must be read under the stage it is used in.
            let current: ConditionDependencies
            if case .pending(let stage, _, _) = phase { current = stage } else { current = .unasked }
            guard let dependenciesFinished, stage == nil || stage == current else {
                return .readDependencies(current)
            }
            // Its own dependencies still being added, Foundation's answer is not whole.
            guard dependenciesFinished, current != .registering else {
                return notReady(countedByFoundation: !dependenciesFinished)
            }
            if case .initialized = phase { enterPending(current) }  // admitted: S16 yields `pending`
            return dependenciesPassed(stage: current, context: context)
        case .evaluating, .acquiring, .joining:
            // Its conditions, categories or the operation it joined will tell (S27).
            return notReady()
        case .ready(let verdict, var passed) where passed.awaitsLateDependency && !isCancelled:
            // A dependency added since it was ready: Foundation's answer decides (S9).
            guard let dependenciesFinished else { return .readDependencies(.asked) }
            guard dependenciesFinished else { return notReady(countedByFoundation: true) }
            let declined = passed.late.awaited == .startDeclined
            passed.late = passed.late.noneAwaited
            enter(.ready(verdict, passed))
            return .answer(true, lateDependenciesFinished(declined: declined, context: context))
        case .ready where readsFoundationWhileReady && dependenciesFinished == false:
            // A barrier block of its plain queue is a dependency now: it waits for it.
            return notReady(countedByFoundation: true)
        case .ready where isStartRequested:
            // Started: nothing to announce.
            return .answer(true, .nothing)
        case .ready where announcements.isUnannounced:
            // Its announcement changes the answer (``ReadinessAnnouncements``).
            return notReady()
        case .ready:
            // The queue's re-test: a stale answer may be stored (``ReadinessAnnouncements``).
            return .answer(true, announcements.queriedWhileReady() ? .reannounceNow : .nothing)
        case .executing, .draining, .finishing, .finished:
            // Past ready.
            return .answer(true, .nothing)
        }
    }

    /// Ready, not started or cancelled, and in no queue of the library's: its plain queue may have
    /// made it depend on a barrier block, which Foundation adds itself, not through
    /// `addDependency(_:)`. Foundation's answer then decides: a `true` would start it before the
    /// barrier, and, read as Foundation adds the barrier holding its queue's lock, schedule under
    /// that lock and hang. Not where Foundation's count is stale (``DependencyCount/stale``).
    @inlinable public var readsFoundationWhileReady: Bool {
        guard case .ready(_, let passed) = phase else { return false }
        return owner == nil && !isStartRequested && !isCancelled && passed.dependencyCount == .counted
    }

    /// Enters `pending` at `stage` from `initialized` or `pending`, keeping what was asked and
    /// what Foundation's count is worth. Inlined: the phase is then written in place.
    @inline(__always)
    @inlinable mutating func enterPending(_ stage: ConditionDependencies) {
        switch phase {
        case .initialized(let asked, let count, _), .pending(_, let asked, let count):
            enter(.pending(stage, asked, count))
        case .evaluating, .acquiring, .joining, .ready, .executing, .draining, .finishing, .finished:
            fatalError("enterPending(\(stage)) in phase \(phase): it passed its dependencies")
        }
    }

    /// Answers a query `false` (see ``ReadinessAnnouncements/answeredNotReady(countedByFoundation:)``).
    @inlinable mutating func notReady(countedByFoundation: Bool = false) -> ReadinessAction {
        announcements.answeredNotReady(countedByFoundation: countedByFoundation)
        return .answer(false, .nothing)
    }

    /// Every dependency finished: ask for condition dependencies (once), else evaluate the conditions.
    @inlinable mutating func dependenciesPassed(stage: ConditionDependencies, context: Context)
        -> ReadinessAction
    {
        if isFinishRequested || conditions.isEmpty && categories.isEmpty {
            return .answer(true, followup(becomeReady(.execute, context: context)))
        }
        if conditions.isEmpty {  // categories alone: acquire them
            return conditionsAnswered(.execute, context: context)
        }
        switch stage {
        case .unasked:
            // Asking until every condition dependency was added (``conditionDependenciesAdded(any:)``).
            enterPending(.askingAfterDependencies)
            return .askConditionDependencies(conditions)
        case .asking, .askingAfterDependencies:
            // Their dependencies are being added: not yet.
            return notReady()
        case .registering:
            fatalError("dependenciesPassed while its own dependencies are being added")
        case .asked:
            // Every dependency, theirs included, finished: evaluate them all at once (S2).
            return evaluateConditions()
        }
    }

    /// The condition dependencies of ``ReadinessAction/askConditionDependencies(_:)`` were added
    /// (and run); `any`: there was at least one. Whether they finished is read only after this: one
    /// finishing earlier met the asking stage, which changes nothing, and would otherwise be a
    /// wake-up lost for good.
    @inlinable public mutating func conditionDependenciesAdded(any: Bool) -> ReadinessAction {
        switch phase {
        case .pending(.askingAfterDependencies, _, _) where !any:
            // Nothing new to wait for: evaluate them all at once (S2).
            return evaluateConditions()
        case .pending(.asking, _, _), .pending(.askingAfterDependencies, _, _):
            // Read the dependencies again, theirs included.
            enterPending(.asked)
            return .readDependencies(.asked)
        case .ready, .executing, .draining, .finishing, .finished:
            // Cancelled (or in a cycle) meanwhile: abandoned.
            return .answer(true, .nothing)
        case .initialized, .pending(.registering, _, _), .pending(.unasked, _, _), .pending(.asked, _, _),
            .evaluating,
            .acquiring, .joining:
            fatalError("conditionDependenciesAdded in phase \(phase): nothing was being asked")
        }
    }

    /// Hands the conditions out for evaluation, all at once (S2). The machine keeps them until
    /// every one answered, so that diagnostics can name those that did not.
    @inlinable mutating func evaluateConditions() -> ReadinessAction {
        enter(.evaluating(Evaluation(count: conditions.count), passed))
        stampRequest.ask(.time)
        return .evaluate(conditions)
    }

    /// The conditions handed out by ``ReadinessAction/evaluate(_:)`` were all asked; those that
    /// answered synchronously may have made the operation ready.
    @inlinable public mutating func endInlineEvaluation(context: Context) -> ReadinessAction {
        switch phase {
        case .evaluating(var evaluation, let passed):
            // Every condition answered: go on, here. Otherwise the last answer will.
            guard evaluation.answered.unanswered == 0 else {
                evaluation.isInline = false
                enter(.evaluating(evaluation, passed))
                if context.answersQuery { announcements.answeredNotReady() }
                return .answer(false, .nothing)
            }
            admission.takeConditions()  // S2: let go of after evaluation; the caller still holds them
            return conditionsAnswered(evaluation.verdict, context: context)
        case .ready, .executing, .draining, .finishing, .finished:
            // Cancelled or finished early while they answered.
            return .answer(true, .nothing)
        case .initialized, .pending, .acquiring, .joining:
            fatalError("endInlineEvaluation in phase \(phase): nothing was being evaluated")
        }
    }

    /// What ``conditionEvaluated(at:_:)`` leaves to do.
    public struct EvaluatedAction: Sendable {
        public var readiness: ReadinessAction
        /// The conditions, once the last one answered (S2): the caller lets go of them unlocked.
        public var dropped: [Host.Condition]

        @inlinable init(readiness: ReadinessAction, dropped: [Host.Condition] = []) {
            self.readiness = readiness
            self.dropped = dropped
        }
    }

    /// The condition at `index` answered.
    @inlinable public mutating func conditionEvaluated(at index: Int, _ result: Host.ConditionResult)
        -> EvaluatedAction
    {
        switch phase {
        case .evaluating(var evaluation, let passed):
            // A repeated answer is counted once (S2).
            guard evaluation.answered.insert(index) else {
                return EvaluatedAction(readiness: .answer(false, .nothing))
            }
            if hasEventSinks, conditions.indices.contains(index) {
                tellSinks(.conditionEvaluated(conditions[index], result, since: evaluation.began))
            }
            switch Host.answer(of: result) {
            case .satisfied: break
            case .failed(let error):
                outcome.recordConditionFailure(error)
                evaluation.failed = true
            case .skipped:
                evaluation.skipped = true
            }
            guard evaluation.answered.unanswered == 0, !evaluation.isInline else {
                enter(.evaluating(evaluation, passed))
                return EvaluatedAction(readiness: .answer(false, .nothing))
            }
            let dropped = admission.takeConditions()
            return EvaluatedAction(
                readiness: conditionsAnswered(evaluation.verdict, context: .callback), dropped: dropped
            )
        case .acquiring:
            // A repeated answer after the last one: ignored (S2).
            return EvaluatedAction(readiness: .answer(false, .nothing))
        case .ready, .executing, .draining, .finishing, .finished:
            // A late answer after a cancel or an early finish: ignored.
            return EvaluatedAction(readiness: .answer(true, .nothing))
        case .initialized, .pending, .joining:
            fatalError("conditionEvaluated in phase \(phase): no condition was handed out")
        }
    }

    /// Every condition answered: acquire the categories if it will execute, else it is ready.
    @inlinable mutating func conditionsAnswered(_ verdict: Verdict, context: Context) -> ReadinessAction {
        guard verdict == .execute, !categories.isEmpty else {
            return .answer(true, followup(becomeReady(verdict, context: context)))
        }
        enter(.acquiring(Acquisition(), passed))
        stampRequest.ask(.time)
        return .acquire(categories, parent: exclusivityParent)
    }

    /// The categories requested by ``ReadinessAction/acquire(_:parent:)`` were granted, now or later.
    @inlinable public mutating func categoriesGranted() -> ReadinessAction {
        switch phase {
        case .acquiring(var acquisition, let passed) where acquisition.isInline:
            // Granted from another thread before the request returned: the requester reports it.
            acquisition.isGranted = true
            enter(.acquiring(acquisition, passed))
            return .answer(false, .nothing)
        case .acquiring(let acquisition, _):
            // Granted later: ready now.
            if hasEventSinks { tellSinks(.acquiredCategories(categories, since: acquisition.began)) }
            return .answer(true, followup(becomeReady(.execute, context: .callback)))
        case .ready, .executing, .draining, .finishing, .finished:
            // Cancelled or finished while waiting: hand the categories on at once.
            return .answer(true, .releaseCategories)
        case .initialized, .pending, .evaluating, .joining:
            fatalError("categoriesGranted in phase \(phase): nothing was requested")
        }
    }

    /// The request of ``ReadinessAction/acquire(_:parent:)`` returned, granted at once or not; a
    /// grant from another thread may have come meanwhile.
    @inlinable public mutating func endInlineAcquisition(_ requested: CategoryAcquisition, context: Context)
        -> ReadinessAction
    {
        switch phase {
        case .acquiring(let acquisition, _) where requested == .granted || acquisition.isGranted:
            // Granted: ready.
            if hasEventSinks { tellSinks(.grantedCategories(categories)) }
            return .answer(true, followup(becomeReady(.execute, context: context)))
        case .acquiring(var acquisition, let passed):
            // Waiting: the grant will make it ready.
            if hasEventSinks, case .waits(let ahead) = requested {
                tellSinks(.waitingForCategories(categories, ahead: ahead))
            }
            acquisition.isInline = false
            enter(.acquiring(acquisition, passed))
            if context.answersQuery { announcements.answeredNotReady() }
            return .answer(false, .nothing)
        case .ready, .executing, .draining, .finishing, .finished:
            // Cancelled or finished early while requesting: it never executes. Nobody else gives
            // back a request made after the cancel withdrew nothing (``abandonConditions()``).
            return .answer(true, .releaseCategories)
        case .initialized, .pending, .evaluating, .joining:
            fatalError("endInlineAcquisition in phase \(phase): nothing was requested")
        }
    }
}
