import Foundation
import Testing

@testable import ConditionalOperations
@testable import ConditionalOperationsMachines

extension ConditionalOperationsTests {
    /// The state machine alone, without threads: scenarios on the way to ready, admission,
    /// dependencies, conditions (S2, S3), categories (S7), cycles (S9) and Foundation's cached
    /// `isReady` answers.
    @Suite struct OperationStateMachineReadinessTests {
        typealias Machine = OperationStateMachine<OperationHost>

        static func drain(_ machine: inout Machine) -> [String] {
            OperationStateMachineTests.drain(&machine)
        }

        @discardableResult
        static func evaluationStep(_ machine: inout Machine, context: Machine.Context = .query)
            -> [any OperationCondition]
        {
            OperationStateMachineTests.evaluationStep(&machine, context: context)
        }

        static func readyMachine() -> Machine {
            OperationStateMachineTests.readyMachine()
        }

        /// A `false` answered before the query that made it ready may be stored after that query's
        /// `true`, so it looks again a moment later. Where the queue re-tests the `false` answers
        /// it stored and every `false` it gave was Foundation's count of its dependencies, the look
        /// stays silent: the pass that reaches it next finds a stale one and asks again, and that
        /// query of the ready operation announces it from another thread at once, once for each
        /// `false` given. Elsewhere the look announces it.
        @Test func aQueryThatMakesItReadyAfterFoundationsFalseIsAnnouncedOnlyWhereAStaleFalseMayBeStored() {
            var machine = Machine()
            #expect(!machine.queryReadiness(dependenciesFinished: false, context: .query).isReady)
            let answer = machine.queryReadiness(dependenciesFinished: true, context: .query)
            #expect(answer.isReady)
            #expect(answer.followup == .reannounceLater, "the earlier false may be cached after this true")
            guard OperationHost.retestsStoredReadiness else {
                let due = machine.reannouncementDue()
                #expect(due)
                return
            }
            #expect(machine.readinessHint == .ask, "a query while the look is on its way counts")
            let due = machine.reannouncementDue()
            #expect(!due, "a pass followed the true, and a later one re-tests a stale false")
            let retest = machine.queryReadiness(dependenciesFinished: true, stage: .asked, context: .query)
            #expect(retest == .answer(true, .reannounceNow), "the re-test found the stale false")
            let dueNow = machine.reannouncementDue()
            #expect(dueNow, "still waiting for its start")
            // One `false` given, repaired once: further reads call for nothing.
            for _ in 0..<3 {
                let read = machine.queryReadiness(dependenciesFinished: true, stage: .asked, context: .query)
                #expect(read == .answer(true, .nothing))
            }
            #expect(machine.readinessHint == .foundation, "nothing left to repair: read without the lock")
        }

        /// A read of the ready operation while its look is on its way may be the queue's re-test of
        /// a stale `false`: the look then announces it, wherever it runs.
        @Test func aReadWhileTheLookIsOnItsWayMakesTheLookAnnounce() {
            var machine = Machine()
            #expect(!machine.queryReadiness(dependenciesFinished: false, context: .query).isReady)
            #expect(
                machine.queryReadiness(dependenciesFinished: true, context: .query).followup
                    == .reannounceLater)
            let read = machine.queryReadiness(dependenciesFinished: true, stage: .asked, context: .query)
            #expect(read == .answer(true, .nothing), "the look on its way announces")
            let due = machine.reannouncementDue()
            #expect(due)
        }

        /// A `false` answered while its dependencies were being registered with Foundation is the
        /// operation's own stage, not Foundation's count: Foundation may have counted them finished
        /// already (the dependency finished first) and then never re-tests it, so the look announces
        /// it, wherever it runs.
        @Test func aFalseAnsweredWhileItsDependenciesAreRegisteredMakesTheLookAnnounce() {
            var machine = Machine()
            let dependency = Foundation.Operation()
            let deferred = machine.deferDependency(dependency)
            #expect(deferred)
            let admission = machine.queryReadiness(dependenciesFinished: nil, context: .query)
            #expect(admission == .registerDependencies([dependency]))
            // Read inside the registration, Foundation counting it finished already.
            let inside = machine.queryReadiness(
                dependenciesFinished: true, stage: .registering, context: .query)
            #expect(inside == .answer(false, .nothing))
            let registered = machine.dependenciesRegistered(context: .query)
            #expect(registered == .readDependencies(.unasked))
            let answer = machine.queryReadiness(dependenciesFinished: true, stage: .unasked, context: .query)
            #expect(answer.isReady)
            #expect(answer.followup == .reannounceLater)
            let due = machine.reannouncementDue()
            #expect(due, "the false it gave inside the registration may be stored for good")
        }

        /// Registered while Foundation still counts the dependency unfinished, every `false` is
        /// Foundation's count: where the queue re-tests, the look stays silent.
        @Test func aFalseAnsweredWhileRegisteringAnUnfinishedDependencyIsFoundationsCount() {
            var machine = Machine()
            let dependency = Foundation.Operation()
            let deferred = machine.deferDependency(dependency)
            #expect(deferred)
            _ = machine.queryReadiness(dependenciesFinished: nil, context: .query)
            let inside = machine.queryReadiness(
                dependenciesFinished: false, stage: .registering, context: .query)
            #expect(inside == .answer(false, .nothing))
            _ = machine.dependenciesRegistered(context: .query)
            #expect(
                !machine.queryReadiness(dependenciesFinished: false, stage: .unasked, context: .query).isReady
            )
            let answer = machine.queryReadiness(dependenciesFinished: true, stage: .unasked, context: .query)
            #expect(answer.followup == .reannounceLater)
            let due = machine.reannouncementDue()
            #expect(due == !OperationHost.retestsStoredReadiness)
        }

        /// Ready through its conditions inside a query, after a `false` answer: a read while the
        /// conditions were evaluated may have answered `false` with no pass to follow it, so it
        /// looks again a moment later wherever it runs.
        @Test func aQueryThatMakesItReadyThroughItsConditionsAfterAFalseAnswerLooksAgainLater() {
            var machine = Machine()
            _ = machine.addCondition(BlockCondition { true }, categories: [])
            #expect(!machine.queryReadiness(dependenciesFinished: false, context: .query).isReady)
            Self.evaluationStep(&machine)
            _ = machine.conditionEvaluated(at: 0, .satisfied)
            let answer = machine.endInlineEvaluation(context: .query)
            #expect(answer.isReady)
            #expect(answer.followup == .reannounceLater)
            let due = machine.reannouncementDue()
            #expect(due, "a read while they were evaluated may have answered false for good")
        }

        /// Ready inside a query after a `false` answer and a dependency removed unfinished:
        /// Foundation's count of its dependencies never reaches zero, so no pass re-tests it, and
        /// it looks again a moment later wherever it runs.
        @Test func aQueryThatMakesItReadyAfterADependencyWasRemovedUnfinishedLooksAgainLater() {
            var machine = Machine()
            #expect(!machine.queryReadiness(dependenciesFinished: false, context: .query).isReady)
            let waits = machine.dependencyRemoved()
            #expect(waits)
            let answer = machine.queryReadiness(dependenciesFinished: true, context: .query)
            #expect(answer.isReady)
            #expect(answer.followup == .reannounceLater)
            let due = machine.reannouncementDue()
            #expect(due, "Foundation's count never reaches zero: no pass re-tests it")
        }

        /// Without a `false` answer, nothing a queue stored can be stale: a query that makes it
        /// ready, and every read after it, announce nothing, on every platform.
        @Test func aQueryThatMakesItReadyWithoutAFalseAnswerBeforeNeverAnnounces() {
            var machine = Machine()
            #expect(machine.queryReadiness(dependenciesFinished: true, context: .query).followup.isEmpty)
            for _ in 0..<3 {
                let read = machine.queryReadiness(dependenciesFinished: true, stage: .asked, context: .query)
                #expect(read == .answer(true, .nothing))
            }
        }

        /// A plain queue adds a barrier block as a dependency itself: once ready, an operation in no
        /// queue of the library's answers with Foundation, until it is started or cancelled.
        @Test func aReadyOperationInAPlainQueueAnswersWithFoundationUntilStarted() {
            var machine = Self.readyMachine()
            let hint = machine.readinessHint
            #expect(hint == .foundation, "Foundation's true is read without the lock")
            #expect(machine.settledReadiness() == .readDependencies(.asked))
            let held = machine.queryReadiness(dependenciesFinished: false, stage: .asked, context: .query)
            #expect(held == .answer(false, .nothing), "behind a barrier")
            #expect(
                machine.queryReadiness(dependenciesFinished: true, stage: .asked, context: .query).isReady)
            #expect(machine.start() != .misuse)
            #expect(machine.settledReadiness() == .answer(true), "started: nothing is read")
        }

        @Test func aQueryThatMakesItReadyAtOnceAnnouncesNothing() {
            var machine = Machine()
            let answer = machine.queryReadiness(dependenciesFinished: true, context: .query)
            #expect(answer.isReady)
            #expect(answer.followup.isEmpty, "the no-op path stays free of dispatches")
        }

        @Test func queryBeforeDependenciesFinishedChangesNothing() {
            var machine = Machine()
            let answer = machine.queryReadiness(dependenciesFinished: false, context: .query)
            #expect(!answer.isReady)
            #expect(answer.followup.isEmpty)
            #expect(machine.state == .initialized)
        }

        @Test func withoutConditionsAQueryMakesItReady() {
            let machine = Self.readyMachine()
            #expect(machine.state == .ready)
        }

        @Test func enqueuedWithNothingToWaitForItIsReadyInOneStep() {
            let queue = ConditionalOperationQueue()
            var machine = Machine()
            guard case .ready = machine.enqueue(on: queue, dependenciesFinished: true) else {
                Issue.record("not ready at once")
                return
            }
            #expect(machine.state == .ready)
            #expect(machine.owner === queue)
            guard case .launched = machine.start() else {
                Issue.record("start did not launch")
                return
            }
        }

        @Test func enqueuedWithUnfinishedDependenciesOrConditionsItIsHeld() {
            let queue = ConditionalOperationQueue()
            var waiting = Machine()
            guard case .held(.readDependencies) = waiting.enqueue(on: queue, dependenciesFinished: false)
            else {
                Issue.record("not held until its dependencies finished")
                return
            }
            #expect(waiting.state == .pending)
            var guarded = Machine()
            _ = guarded.addCondition(BlockCondition { true }, categories: [])
            guard
                case .held(.askConditionDependencies(let conditions)) = guarded.enqueue(
                    on: queue, dependenciesFinished: true)
            else {
                Issue.record("not held")
                return
            }
            #expect(conditions.count == 1)
            #expect(guarded.state == .pending)
            // Once ready, the queue holding it is told to hand it over.
            #expect(
                guarded.conditionDependenciesAdded(any: false).readsDependencies,
                "enqueued before its dependencies were known to have finished: read them")
            let evaluated = Self.evaluationStep(&guarded, context: .callback)
            #expect(evaluated.count == 1)
            _ = guarded.conditionEvaluated(at: 0, .satisfied)
            #expect(guarded.endInlineEvaluation(context: .callback).followup == .handOver(to: queue))
        }

        /// Ready while its queue adds it: the queue hands it over itself, with its batch, and the
        /// followup says so instead of naming the queue (the runner would hand it over twice).
        @Test func anOperationReadyWhileItsQueueAddsItIsHandedOverByTheQueueAlone() {
            let queue = ConditionalOperationQueue()
            var machine = Machine()
            _ = machine.addCondition(BlockCondition { true }, categories: [])
            guard case .held(let action) = machine.enqueue(on: queue, dependenciesFinished: true) else {
                Issue.record("not held")
                return
            }
            #expect(action == .askConditionDependencies([BlockCondition { true }]))
            #expect(machine.conditionDependenciesAdded(any: false) == .readDependencies(.asked))
            #expect(
                machine.queryReadiness(dependenciesFinished: true, stage: .asked, context: .admission)
                    == .evaluate([BlockCondition { true }]))
            _ = machine.conditionEvaluated(at: 0, .satisfied)
            let answer = machine.endInlineEvaluation(context: .admission)
            #expect(answer == .answer(true, .admitted))
            #expect(answer.followup.queue == nil)
        }

        /// A held operation is run by its `ConditionalOperationQueue`, never by Foundation's
        /// scheduler: whatever `isReady` answer Foundation cached does not matter, and handing it
        /// over announces nothing, not even after a query answered `false` (a re-announcement there
        /// cost a timer per operation of a chain).
        @Test func aHeldOperationThatAnsweredNotReadyIsHandedOverWithoutAnAnnouncement() {
            let queue = ConditionalOperationQueue()
            var machine = Machine()
            guard case .held = machine.enqueue(on: queue, dependenciesFinished: false) else {
                Issue.record("not held")
                return
            }
            // Foundation re-checks a dependent when one of its dependencies finished.
            #expect(!machine.queryReadiness(dependenciesFinished: false, context: .query).isReady)
            let answer = machine.queryReadiness(dependenciesFinished: true, context: .query)
            #expect(answer.isReady)
            #expect(answer.followup == .handOver(to: queue))
        }

        @Test func aHeldOperationThatNeverAnsweredNotReadyIsOnlyHandedOver() {
            let queue = ConditionalOperationQueue()
            var machine = Machine()
            _ = machine.enqueue(on: queue, dependenciesFinished: false)
            #expect(
                machine.queryReadiness(dependenciesFinished: true, context: .query).followup
                    == .handOver(to: queue))
        }

        /// `MutuallyExclusive` adds categories alone: nothing is evaluated, they are acquired once
        /// every dependency finished.
        @Test func S7_categoriesAloneAreAcquiredWithoutEvaluatingAnything() {
            var machine = Machine()
            #expect(machine.addCondition(nil, categories: ["a"]) == .added)
            let answer = machine.queryReadiness(dependenciesFinished: true, context: .query)
            guard case .acquire(let categories, let parent) = answer else {
                Issue.record("no acquisition step: \(String(describing: answer))")
                return
            }
            #expect(categories == ["a"] && parent == nil)
            #expect(machine.state == .evaluatingConditions)
            #expect(machine.endInlineAcquisition(.granted, context: .query).isReady, "granted at once")
            #expect(machine.addCondition(nil, categories: ["b"]) == .misuse, "S13: too late once acquired")
        }

        @Test func S2_conditionsAreHandedOutOnlyOnceDependenciesFinished() {
            var machine = Machine()
            #expect(machine.addCondition(BlockCondition { true }, categories: []) == .added)
            #expect(machine.queryReadiness(dependenciesFinished: false, context: .query).isStep == false)
            let asking = machine.queryReadiness(dependenciesFinished: true, context: .query)
            guard case .askConditionDependencies(let asked) = asking else {
                Issue.record("condition dependencies were not asked first")
                return
            }
            #expect(asked.count == 1)
            #expect(
                machine.queryReadiness(dependenciesFinished: true, context: .query).isStep == false,
                "asked once")
            let added = machine.conditionDependenciesAdded(any: true)
            #expect(added.readsDependencies, "whether they finished is read after they were added")
            // An answer read before the dependencies were added is stale: asked again.
            let stale = machine.queryReadiness(
                dependenciesFinished: true, stage: .asking, context: .query)
            #expect(stale.readsDependencies)
            let answer = machine.queryReadiness(
                dependenciesFinished: true, stage: .asked, context: .query)
            guard case .evaluate(let evaluated) = answer else {
                Issue.record("the conditions were not handed out")
                return
            }
            #expect(evaluated.count == 1)
            #expect(!answer.isReady)
            #expect(machine.state == .evaluatingConditions)
            #expect(machine.queryReadiness(dependenciesFinished: true, context: .query).isStep == false)
        }

        @Test func S3_conditionsWithoutDependenciesAreEvaluatedWithoutReadingTheDependenciesAgain() {
            var machine = Machine()
            _ = machine.addCondition(BlockCondition { true }, categories: [])
            guard
                case .askConditionDependencies = machine.queryReadiness(
                    dependenciesFinished: true, context: .query)
            else {
                Issue.record("condition dependencies were not asked first")
                return
            }
            guard case .evaluate(let evaluated) = machine.conditionDependenciesAdded(any: false) else {
                Issue.record("every dependency had finished and none was added: evaluate at once")
                return
            }
            #expect(evaluated.count == 1)
            #expect(machine.state == .evaluatingConditions)
        }

        @Test func S2_synchronousAnswersMakeTheQueryReady() {
            var machine = Machine()
            _ = machine.addCondition(BlockCondition { true }, categories: [])
            Self.evaluationStep(&machine)
            #expect(machine.conditionEvaluated(at: 0, .satisfied).followup.isEmpty)
            let answer = machine.endInlineEvaluation(context: .query)
            #expect(answer.isReady)
            #expect(answer.followup.isEmpty)
            #expect(machine.state == .ready)
        }

        @Test func S2_aLateAnswerAnnouncesReadiness() {
            var machine = Machine()
            _ = machine.addCondition(BlockCondition { true }, categories: [])
            _ = machine.addCondition(BlockCondition { true }, categories: [])
            Self.evaluationStep(&machine)
            #expect(!machine.endInlineEvaluation(context: .query).isReady)
            #expect(machine.conditionEvaluated(at: 0, .satisfied).followup.isEmpty)
            #expect(
                machine.conditionEvaluated(at: 0, .satisfied).followup.isEmpty,
                "a second answer is counted once")
            #expect(machine.state == .evaluatingConditions)
            #expect(machine.conditionEvaluated(at: 1, .satisfied).followup == .announceReady)
            #expect(machine.state == .ready)
        }

        @Test func S2_aFailedConditionFinishesWithoutExecutingAndIsNoCancel() {
            var machine = Machine()
            _ = machine.addCondition(BlockCondition { true }, categories: [])
            _ = machine.addCondition(BlockCondition { true }, categories: [])
            Self.evaluationStep(&machine)
            _ = machine.conditionEvaluated(at: 0, .failed(TestError(1)))
            _ = machine.conditionEvaluated(at: 1, .failed(TestError(2)))
            #expect(machine.endInlineEvaluation(context: .query).isReady)
            #expect(!machine.isCancelled)
            guard case .launched = machine.start() else {
                Issue.record("start did not launch")
                return
            }
            #expect(Self.drain(&machine) == ["finish(2,skipped)"])
            #expect(machine.errors.count == 2)
        }

        @Test func S7_categoriesAreRequestedOnceTheConditionsPassed() {
            var machine = Machine()
            _ = machine.addCondition(MutuallyExclusive(category: "a"), categories: ["a"])
            Self.evaluationStep(&machine)
            _ = machine.conditionEvaluated(at: 0, .satisfied)
            let answer = machine.endInlineEvaluation(context: .query)
            guard case .acquire(let categories, _) = answer else {
                Issue.record("no categories requested")
                return
            }
            #expect(categories == ["a"])
            #expect(!answer.isReady)
            // Granted from another thread before the request returned: the query answers itself.
            #expect(machine.categoriesGranted().followup.isEmpty)
            let granted = machine.endInlineAcquisition(.waits(ahead: 0), context: .query)
            #expect(granted.isReady)
            #expect(granted.followup.isEmpty)
            _ = machine.start()
            _ = Self.drain(&machine)
            guard case .deliverNow(.finish(_, _, let releases), _) = machine.finish(errors: []) else {
                Issue.record("no finish effect")
                return
            }
            #expect(releases, "finishing gives the categories back")
        }

        @Test func S7_aLaterGrantAnnouncesReadiness() {
            var machine = Machine()
            _ = machine.addCondition(MutuallyExclusive(category: "a"), categories: ["a"])
            Self.evaluationStep(&machine)
            _ = machine.conditionEvaluated(at: 0, .satisfied)
            _ = machine.endInlineEvaluation(context: .query)
            #expect(!machine.endInlineAcquisition(.waits(ahead: 0), context: .query).isReady)
            #expect(machine.state == .evaluatingConditions)
            #expect(machine.categoriesGranted().followup == .announceReady)
            #expect(machine.state == .ready)
        }

        @Test func S7_aFailedConditionRequestsNoCategory() {
            var machine = Machine()
            _ = machine.addCondition(MutuallyExclusive(category: "a"), categories: ["a"])
            _ = machine.addCondition(BlockCondition { false }, categories: [])
            Self.evaluationStep(&machine)
            _ = machine.conditionEvaluated(at: 0, .satisfied)
            _ = machine.conditionEvaluated(at: 1, .failed(TestError()))
            let answer = machine.endInlineEvaluation(context: .query)
            #expect(answer.isStep == false)
            #expect(answer.isReady)
        }

        @Test func S7_cancelWhileWaitingWithdrawsTheRequestAndALateGrantIsGivenBack() {
            var machine = Machine()
            _ = machine.addCondition(MutuallyExclusive(category: "a"), categories: ["a"])
            Self.evaluationStep(&machine)
            _ = machine.conditionEvaluated(at: 0, .satisfied)
            _ = machine.endInlineEvaluation(context: .query)
            _ = machine.endInlineAcquisition(.waits(ahead: 0), context: .query)
            #expect(
                machine.cancel(finishesWhenCancelled: true).followup?.releasesCategories == true)
            #expect(machine.categoriesGranted().followup == .releaseCategories)
        }

        @Test func S7_aGroupChildRequestsItsCategoriesInTheScopeOfTheParentItHasThen() {
            let parent = ProbeOperation()
            var machine = Machine()
            _ = machine.addCondition(MutuallyExclusive(category: "a"), categories: ["a"])
            #expect(machine.categories == ["a"])
            #expect(machine.exclusivityParent == nil)
            machine.adoptParent(parent)
            #expect(machine.exclusivityParent === parent)
            Self.evaluationStep(&machine)
            _ = machine.conditionEvaluated(at: 0, .satisfied)
            guard case .acquire(let categories, let scope) = machine.endInlineEvaluation(context: .query)
            else {
                Issue.record("no categories requested")
                return
            }
            #expect(categories == ["a"])
            #expect(scope === parent)
        }

        @Test func S9_anOperationMarkedInACycleNeverExecutesEvenIfItsDependenciesFinishFirst() {
            var machine = Machine()
            machine.markInCycle(OperationError.dependencyCycle)
            // Another operation of the cycle finished first: this one's dependencies are done.
            #expect(machine.queryReadiness(dependenciesFinished: true, context: .query).isReady)
            _ = machine.start()
            #expect(Self.drain(&machine) == ["finish(1,skipped)"])
            var waiting = Machine()
            waiting.markInCycle(OperationError.dependencyCycle)
            #expect(waiting.breakCycle() == .announceReady)
            #expect(waiting.state == .ready)
        }

        @Test func manualStartBeforeReadyLaunchesWhenReady() {
            var machine = Machine()
            _ = machine.addObserver(BlockObserver(didStart: { _ in }))  // someone to tell of the start
            _ = machine.addCondition(BlockCondition { true }, categories: [])
            guard case .admit = machine.start() else {
                Issue.record("start did not admit")
                return
            }
            #expect(!machine.queryReadiness(dependenciesFinished: false, context: .start).isReady)
            // Foundation asks `isReady` when the last dependency finished.
            #expect(Self.evaluationStep(&machine).count == 1)
            _ = machine.conditionEvaluated(at: 0, .satisfied)
            #expect(machine.endInlineEvaluation(context: .query).followup == .launchLater)
            #expect(machine.launchDeferred() == .announceStart)
            #expect(Self.drain(&machine) == ["didStart", "execute"])
            #expect(machine.launchDeferred() == [])
        }

        @Test func readinessIsAnnouncedAgainWhenAQueueMayHaveCachedAStaleAnswer() {
            var machine = Machine()
            _ = machine.addCondition(BlockCondition { true }, categories: [])
            Self.evaluationStep(&machine)
            // Two `false` answers, each of which a queue may store after a later `true`.
            #expect(!machine.endInlineEvaluation(context: .query).isReady)
            #expect(!machine.queryReadiness(dependenciesFinished: true, context: .query).isReady)
            #expect(machine.conditionEvaluated(at: 0, .satisfied).followup == .announceReady)
            // One query during the announcement is its own: done.
            machine.announcementBegan()
            _ = machine.queryReadiness(dependenciesFinished: true, context: .query)
            #expect(machine.announcementEnded() == false)
            // Two queries: a stale answer may have been stored between them.
            machine.announcementBegan()
            _ = machine.queryReadiness(dependenciesFinished: true, context: .query)
            _ = machine.queryReadiness(dependenciesFinished: true, context: .query)
            #expect(machine.announcementEnded() == true)
            // A query after the announcement (the queue's re-test): announce once more, not twice,
            // and at once: Foundation's queue runs what its re-test found ready only on a later pass.
            #expect(
                machine.queryReadiness(dependenciesFinished: true, context: .query).followup
                    == .reannounceNow)
            #expect(machine.queryReadiness(dependenciesFinished: true, context: .query).followup.isEmpty)
            #expect(machine.reannouncementDue() == true)
            // Each `false` answer was repaired once: reads, during an announcement or after it,
            // call for no more.
            machine.announcementBegan()
            for _ in 0..<1_000 { _ = machine.queryReadiness(dependenciesFinished: true, context: .query) }
            #expect(machine.announcementEnded() == false)
            for _ in 0..<1_000 {
                #expect(machine.queryReadiness(dependenciesFinished: true, context: .query).followup.isEmpty)
            }
            // Once started, nothing more.
            _ = machine.start()
            #expect(machine.reannouncementDue() == false)
        }

        /// Ready from a callback, it answers `isReady` with the old value until its announcement
        /// posted `willChangeValue`: the value changes between `willChangeValue` and `didChangeValue`.
        @Test func isReadyTurnsTrueOnlyOnceItsAnnouncementBegan() {
            var machine = Machine()
            _ = machine.addCondition(BlockCondition { true }, categories: [])
            Self.evaluationStep(&machine)
            _ = machine.endInlineEvaluation(context: .callback)
            #expect(machine.conditionEvaluated(at: 0, .satisfied).followup == .announceReady)
            #expect(machine.state == .ready)
            #expect(machine.settledReadiness() == .answer(false))
            #expect(!machine.queryReadiness(dependenciesFinished: true, context: .query).isReady)
            machine.announcementBegan()
            #expect(machine.queryReadiness(dependenciesFinished: true, context: .query).isReady)
            #expect(machine.announcementEnded() == false)
        }

        /// Without a `false` answer, no queue can have stored a stale one: reads never call for a
        /// second announcement.
        @Test func readinessIsNotAnnouncedAgainWithoutAFalseAnswer() {
            var machine = Machine()
            _ = machine.addCondition(BlockCondition { true }, categories: [])
            Self.evaluationStep(&machine)
            _ = machine.endInlineEvaluation(context: .callback)
            #expect(machine.conditionEvaluated(at: 0, .satisfied).followup == .announceReady)
            machine.announcementBegan()
            for _ in 0..<3 { _ = machine.queryReadiness(dependenciesFinished: true, context: .query) }
            #expect(machine.announcementEnded() == false)
            #expect(machine.queryReadiness(dependenciesFinished: true, context: .query).followup.isEmpty)
        }
    }
}
