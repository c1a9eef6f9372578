import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests {
    /// The state machine alone, without threads: every transition, every refusal, cancel from every state.
    @Suite struct OperationStateMachineTests {
        typealias Machine = OperationStateMachine

        /// Drains the effects as a deliverer would, naming each.
        static func drain(_ machine: inout Machine) -> [String] {
            var names: [String] = []
            while true {
                switch machine.nextEffect(thread: .none) {
                case .deliver(.didStart, _): names.append("didStart")
                case .deliver(.didProduce, _): names.append("didProduce")
                case .deliver(.didCancel, _): names.append("didCancel")
                case .deliver(.finish(let errors, let wasExecuting, _), _):
                    names.append("finish(\(errors.count),\(wasExecuting ? "executed" : "skipped"))")
                case .execute:
                    names.append("execute")
                    return names
                case .done:
                    return names
                }
            }
        }

        /// Passes every dependency and the condition-dependency step, as `settle` does; returns the
        /// conditions handed out for evaluation.
        @discardableResult
        static func evaluationStep(_ machine: inout Machine, context: Machine.Context = .query)
            -> [any OperationCondition]
        {
            var answer = machine.queryReadiness(dependenciesFinished: true, context: context)
            if case .askConditionDependencies = answer {
                guard case .readDependencies(let stage) = machine.conditionDependenciesAdded() else {
                    return []
                }
                answer = machine.queryReadiness(dependenciesFinished: true, stage: stage, context: context)
            }
            guard case .evaluate(let conditions) = answer else { return [] }
            return conditions
        }

        static func readyMachine() -> Machine {
            var machine = Machine()
            #expect(machine.queryReadiness(dependenciesFinished: true, context: .query).isReady)
            return machine
        }

        @Test func S11_anOperationThatDrainsWaitsForDrainedInsteadOfFinishingWhenStartedCancelled() {
            var machine = Self.readyMachine()
            machine.drainBeforeFinishing()
            _ = machine.cancel(finishesWhenCancelled: false)
            #expect(Self.drain(&machine) == ["didCancel"])
            guard case .launched(let followup) = machine.start() else {
                Issue.record("a ready operation launches when started")
                return
            }
            #expect(followup == .drain)
            #expect(machine.state == .ready, "draining is not finishing: a cancel error still counts")
            #expect(machine.cancel(finishesWhenCancelled: false).followup == nil, "cancelled once")
            let recorded = machine.recordCancelError(TestError(1))
            #expect(recorded)
            let finishing = machine.drained(errors: [TestError(2)])
            #expect(finishing == .deliver)
            #expect(machine.state == .finishing)
            #expect(Self.drain(&machine) == ["finish(2,skipped)"])
        }

        @Test func aQueryThatMakesItReadyAfterAFalseAnswerAlsoAnnouncesFromAnotherThread() {
            var machine = Machine()
            #expect(!machine.queryReadiness(dependenciesFinished: false, context: .query).isReady)
            let answer = machine.queryReadiness(dependenciesFinished: true, context: .query)
            #expect(answer.isReady)
            #expect(answer.followup == .reannounceLater, "the earlier false may be cached after this true")
            let due = machine.reannouncementDue()
            #expect(due)
        }

        @Test func aQueryThatMakesItReadyAtOnceAnnouncesNothing() {
            var machine = Machine()
            let answer = machine.queryReadiness(dependenciesFinished: true, context: .query)
            #expect(answer.isReady)
            #expect(answer.followup.isEmpty, "the no-op path stays free of dispatches")
        }

        @Test func S1_withNobodyToTellOfTheStartItExecutesAtOnce() {
            var machine = Self.readyMachine()
            guard case .launched(let followup) = machine.start() else {
                Issue.record("a ready operation launches when started")
                return
            }
            #expect(
                followup == (Machine.postsExecutingKVO ? .deliver : .executeNow),
                "no observer and no KVO: execute() without a trip through the effects")
            #expect(machine.state == .executing)
            guard case .finishing(let finishing) = machine.finish(errors: []) else {
                Issue.record("an executing operation finishes")
                return
            }
            #expect(finishing == .deliver)
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
            #expect(guarded.conditionDependenciesAdded().readsDependencies)
            let evaluated = Self.evaluationStep(&guarded, context: .callback)
            #expect(evaluated.count == 1)
            _ = guarded.conditionEvaluated(at: 0, .satisfied)
            #expect(guarded.endInlineEvaluation(context: .callback).followup == .handToQueue)
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
            _ = machine.categoriesGranted()
            #expect(machine.endInlineAcquisition(context: .query).isReady)
            #expect(machine.addCondition(nil, categories: ["b"]) == .misuse, "S13: too late once acquired")
        }

        @Test func fullLifeOfAnExecutedOperation() {
            var machine = Self.readyMachine()
            _ = machine.addObserver(BlockObserver())  // someone to tell of the start
            guard case .launched(let followup) = machine.start() else {
                Issue.record("start did not launch")
                return
            }
            #expect(followup == .deliver)
            #expect(machine.state == .executing)
            #expect(Self.drain(&machine) == ["didStart", "execute"])
            guard case .finishing(let finishing) = machine.finish(errors: [TestError(1)]) else {
                Issue.record("finish refused")
                return
            }
            #expect(finishing == .deliver)
            #expect(machine.state == .finishing)
            #expect(machine.isExecuting() == true)
            #expect(Self.drain(&machine) == ["finish(1,executed)"])
            _ = machine.markFinished(notified: 1)
            #expect(machine.state == .finished)
            #expect(machine.failed)
            #expect(machine.isExecuting() == false)
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
            let added = machine.conditionDependenciesAdded()
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

        @Test func S4_cancelFromEveryStateBeforeExecutingMakesItReady() {
            // initialized
            var initialized = Machine()
            #expect(initialized.cancel(finishesWhenCancelled: true).followup == [.deliver, .announceReady])
            #expect(initialized.state == .ready)
            #expect(Self.drain(&initialized) == ["didCancel"])
            // pending (started by hand, dependencies unfinished): it may finish at once, start() came
            var pending = Machine()
            guard case .admit = pending.start() else {
                Issue.record("start did not admit")
                return
            }
            #expect(!pending.queryReadiness(dependenciesFinished: false, context: .start).isReady)
            #expect(pending.state == .pending)
            #expect(pending.cancel(finishesWhenCancelled: true).followup == .deliver)
            #expect(Self.drain(&pending) == ["didCancel", "finish(0,skipped)"])
            // evaluating conditions: late answers are ignored
            var evaluating = Machine()
            _ = evaluating.addCondition(BlockCondition { true }, categories: [])
            Self.evaluationStep(&evaluating)
            _ = evaluating.endInlineEvaluation(context: .query)
            #expect(evaluating.cancel(finishesWhenCancelled: true).followup == [.deliver, .announceReady])
            #expect(evaluating.state == .ready)
            #expect(evaluating.conditionEvaluated(at: 0, .failed(TestError())).followup.isEmpty)
            #expect(evaluating.errors.isEmpty)
            // ready
            var ready = Self.readyMachine()
            #expect(ready.cancel(finishesWhenCancelled: true).followup == [.deliver, .announceReady])
            _ = Self.drain(&ready)
            guard case .launched = ready.start() else {
                Issue.record("start did not launch")
                return
            }
            #expect(Self.drain(&ready) == ["finish(0,skipped)"])
        }

        @Test func S4_cancelTwiceNotifiesOnceButKeepsEveryError() {
            var machine = Machine()
            #expect(machine.recordCancelError(TestError(1)) == true)
            #expect(machine.cancel(finishesWhenCancelled: true).followup != nil)
            #expect(machine.recordCancelError(TestError(2)) == true)
            #expect(machine.cancel(finishesWhenCancelled: true).followup == nil)
            #expect(machine.errors.count == 2)
        }

        @Test func S5_cancelWhileExecutingFinishesAtOnce() {
            var machine = Self.readyMachine()
            _ = machine.start()
            _ = Self.drain(&machine)
            #expect(machine.cancel(finishesWhenCancelled: true).followup == .deliver)
            #expect(machine.state == .finishing)
            #expect(Self.drain(&machine) == ["didCancel", "finish(0,executed)"])
            guard case .ignored = machine.finish(errors: []) else {
                Issue.record("a late finish was not ignored")
                return
            }
        }

        @Test func S5_cancelWhileExecutingWaitsForTheOperationWhenAsked() {
            var machine = Self.readyMachine()
            _ = machine.start()
            _ = Self.drain(&machine)
            _ = machine.cancel(finishesWhenCancelled: false)
            #expect(machine.state == .executing)
            #expect(Self.drain(&machine) == ["didCancel"])
            guard case .finishing = machine.finish(errors: []) else {
                Issue.record("its own finish was refused")
                return
            }
        }

        @Test func cancelOnceFinishingBeganChangesNothing() {
            var machine = Self.readyMachine()
            _ = machine.start()
            _ = Self.drain(&machine)
            _ = machine.finish(errors: [])
            #expect(machine.cancel(finishesWhenCancelled: true).followup == nil)
            #expect(machine.recordCancelError(TestError()) == false)
            _ = Self.drain(&machine)
            _ = machine.markFinished(notified: 0)
            #expect(machine.cancel(finishesWhenCancelled: true).followup == nil)
            #expect(!machine.isCancelled)
        }

        @Test func S1_aDidStartObserverThatCancelsPreventsExecute() {
            var machine = Self.readyMachine()
            _ = machine.addObserver(BlockObserver())  // someone to tell of the start
            _ = machine.start()
            guard case .deliver(.didStart, _) = machine.nextEffect(thread: .none) else {
                Issue.record("didStart was not first")
                return
            }
            // While didStart is delivered, an observer cancels: its effects queue behind.
            #expect(machine.cancel(finishesWhenCancelled: true).followup == [])
            #expect(Self.drain(&machine) == ["didCancel", "finish(0,executed)"])
        }

        @Test func S1_aDidStartObserverThatCancelsAnOperationFinishingItselfStillFinishes() {
            var machine = Self.readyMachine()
            _ = machine.addObserver(BlockObserver())  // someone to tell of the start
            _ = machine.start()
            _ = machine.nextEffect(thread: .none)
            _ = machine.cancel(finishesWhenCancelled: false)
            #expect(Self.drain(&machine) == ["didCancel", "finish(0,executed)"])
        }

        @Test func S1_callbacksQueuedDuringDidStartComeBeforeExecute() {
            var machine = Self.readyMachine()
            _ = machine.addObserver(BlockObserver())  // someone to tell of the start
            _ = machine.start()
            _ = machine.nextEffect(thread: .none)
            #expect(machine.produce(Foundation.Operation()) == [])
            #expect(Self.drain(&machine) == ["didProduce", "execute"])
        }

        @Test func S6_finishBeforeStartFinishesWithoutExecutingOnceStarted() {
            var machine = Machine()
            guard case .deferred(let followup) = machine.finish(errors: [TestError(1)]) else {
                Issue.record("finish before start was not deferred")
                return
            }
            #expect(followup.isEmpty)
            guard case .ignored = machine.finish(errors: [TestError(2)]) else {
                Issue.record("a second finish was not ignored")
                return
            }
            _ = machine.addCondition(BlockCondition { false }, categories: [])
            #expect(machine.queryReadiness(dependenciesFinished: true, context: .query).isReady)
            _ = machine.start()
            #expect(Self.drain(&machine) == ["finish(1,skipped)"])
        }

        @Test func S6_finishWhileEvaluatingAbandonsTheConditions() {
            var machine = Machine()
            _ = machine.addCondition(BlockCondition { true }, categories: [])
            Self.evaluationStep(&machine)
            _ = machine.endInlineEvaluation(context: .query)
            guard case .deferred(let followup) = machine.finish(errors: []) else {
                Issue.record("finish while evaluating was not deferred")
                return
            }
            #expect(followup == .announceReady)
            #expect(machine.state == .ready)
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
            // Granted before the request returned: the query answers itself.
            #expect(machine.categoriesGranted().followup.isEmpty)
            let granted = machine.endInlineAcquisition(context: .query)
            #expect(granted.isReady)
            #expect(granted.followup.isEmpty)
            _ = machine.start()
            _ = Self.drain(&machine)
            _ = machine.finish(errors: [])
            guard case .deliver(.finish(_, _, let releases), _) = machine.nextEffect(thread: .none) else {
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
            #expect(!machine.endInlineAcquisition(context: .query).isReady)
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
            _ = machine.endInlineAcquisition(context: .query)
            #expect(
                machine.cancel(finishesWhenCancelled: true).followup?.contains(.releaseCategories) == true)
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
            #expect(waiting.releaseFromCycle() == .announceReady)
            #expect(waiting.state == .ready)
        }

        @Test func S1_anObserverAddedWhileFinishingHearsDidFinishBeforeIsFinishedFlips() {
            var machine = Self.readyMachine()
            _ = machine.start()
            _ = Self.drain(&machine)
            _ = machine.finish(errors: [])
            _ = Self.drain(&machine)
            #expect(machine.addObserver(BlockObserver()).isTold == false, "still finishing: not told at once")
            guard case .tell(let latecomers) = machine.markFinished(notified: 0) else {
                Issue.record("the latecomer was not handed out")
                return
            }
            #expect(latecomers.count == 1)
            #expect(machine.state == .finishing)
            guard case .finished = machine.markFinished(notified: 1) else {
                Issue.record("not finished once every observer was told")
                return
            }
            #expect(machine.state == .finished)
        }

        @Test func S13_startTwiceAndLateConditionsAreRefused() {
            var machine = Self.readyMachine()
            #expect(machine.addCondition(BlockCondition { true }, categories: []) == .misuse)
            _ = machine.start()
            guard case .misuse = machine.start() else {
                Issue.record("a second start was accepted")
                return
            }
            var cancelled = Machine()
            _ = cancelled.cancel(finishesWhenCancelled: true)
            #expect(cancelled.addCondition(BlockCondition { true }, categories: []) == .ignored)
        }

        @Test func manualStartBeforeReadyLaunchesWhenReady() {
            var machine = Machine()
            _ = machine.addObserver(BlockObserver())  // someone to tell of the start
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
            #expect(machine.launchDeferred() == .deliver)
            #expect(Self.drain(&machine) == ["didStart", "execute"])
            #expect(machine.launchDeferred() == [])
        }

        @Test func readinessIsAnnouncedAgainWhenAQueueMayHaveCachedAStaleAnswer() {
            var machine = Machine()
            _ = machine.addCondition(BlockCondition { true }, categories: [])
            Self.evaluationStep(&machine)
            _ = machine.endInlineEvaluation(context: .query)
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
            // A query after the announcement (the queue's re-test): announce once more, not twice.
            #expect(
                machine.queryReadiness(dependenciesFinished: true, context: .query).followup
                    == .reannounceLater)
            #expect(machine.queryReadiness(dependenciesFinished: true, context: .query).followup.isEmpty)
            #expect(machine.reannouncementDue() == true)
            // Once started, nothing more.
            _ = machine.start()
            #expect(machine.reannouncementDue() == false)
        }

        @Test func S12_finishingReleasesObserversAndWaiters() {
            var machine = Self.readyMachine()
            #expect(machine.addObserver(BlockObserver()).isTold == false)
            _ = machine.start()
            _ = Self.drain(&machine)
            _ = machine.finish(errors: [])
            _ = Self.drain(&machine)
            _ = machine.markFinished(notified: 1)
            #expect(machine.observers.count == 0)
            #expect(machine.owner == nil)
            #expect(machine.addObserver(BlockObserver()).isTold, "a late observer is told at once")
        }
    }
}

extension OperationStateMachine.ReadinessAction {
    /// The answer; `false` while a step is handed out instead.
    var isReady: Bool {
        guard case .answer(let isReady, _) = self else { return false }
        return isReady
    }

    var followup: OperationStateMachine.Followup {
        guard case .answer(_, let followup) = self else { return [] }
        return followup
    }

    /// A step is handed out instead of an answer.
    var isStep: Bool {
        guard case .answer = self else { return true }
        return false
    }

    var readsDependencies: Bool {
        guard case .readDependencies = self else { return false }
        return true
    }
}

extension OperationStateMachine.CancelAction {
    /// `nil` when the cancel was ignored.
    var followup: OperationStateMachine.Followup? {
        guard case .cancelled(let followup) = self else { return nil }
        return followup
    }
}

extension OperationStateMachine.AddObserverAction {
    /// The observer is told `operationDidFinish` at once.
    var isTold: Bool {
        guard case .tellFinished = self else { return false }
        return true
    }
}
