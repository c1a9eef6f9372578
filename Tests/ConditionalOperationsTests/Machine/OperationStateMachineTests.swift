import Foundation
import Testing

@testable import ConditionalOperations
@testable import ConditionalOperationsMachines

extension ConditionalOperationsTests {
    /// The state machine alone, without threads: scenarios from starting to finishing (S1, S4–S6,
    /// S11–S13). The way to ready is in `OperationStateMachineReadinessTests`, each event in every
    /// phase in `OperationStateMachineTableTests`.
    @Suite struct OperationStateMachineTests {
        typealias Machine = OperationStateMachine<OperationHost>

        /// Drains the effects as a deliverer would, naming each.
        static func drain(_ machine: inout Machine) -> [String] {
            var names: [String] = []
            while true {
                switch machine.nextEffect() {
                case .announceStart:
                    _ = machine.startAnnounced()
                    names.append("didStart")
                case .deliver(.didStart, _): names.append("didStart")
                case .deliver(.didProduce, _): names.append("didProduce")
                case .deliver(.didCancel, _): names.append("didCancel")
                case .deliver(.finish(let errors, let wasExecuting, _), _):
                    names.append("finish(\(errors.count),\(wasExecuting ? "executed" : "skipped"))")
                case .execute:
                    names.append("execute")
                    return names
                case .drain:
                    names.append("drain")
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
                answer = machine.conditionDependenciesAdded(any: false)  // none: no second read
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
            #expect(
                machine.cancel(with: TestError(1), finishesWhenCancelled: false).followup == nil,
                "cancelled once, its error recorded")
            let finishing = machine.drained(errors: [TestError(2)])
            #expect(finishing == .deliver)
            #expect(machine.state == .finishing)
            #expect(Self.drain(&machine) == ["finish(2,skipped)"])
        }

        @Test func S1_withNobodyToTellOfTheStartItExecutesAtOnce() {
            var machine = Self.readyMachine()
            guard case .launched(let followup) = machine.start() else {
                Issue.record("a ready operation launches when started")
                return
            }
            #expect(
                followup == (OperationHost.postsExecutingKVO ? .announceStart : .executeNow),
                "no observer and no KVO: execute() without a trip through the effects")
            #expect(machine.state == .executing)
            // Where `isExecuting` is posted, the start is announced first, and `execute()` follows.
            if OperationHost.postsExecutingKVO { #expect(Self.drain(&machine) == ["didStart", "execute"]) }
            guard case .deliverNow(.finish, _) = machine.finish(errors: []) else {
                Issue.record("nothing else to deliver: the finishing callback is delivered at once")
                return
            }
            #expect(machine.state == .finishing)
        }

        @Test func S1_withObserversThatIgnoreTheStartItExecutesAtOnce() {
            var machine = Self.readyMachine()
            _ = machine.addObserver(BlockObserver(didFinish: { _, _ in }))
            guard case .launched(let followup) = machine.start() else {
                Issue.record("a ready operation launches when started")
                return
            }
            #expect(followup == (OperationHost.postsExecutingKVO ? .announceStart : .executeNow))
            var told = Self.readyMachine()
            _ = told.addObserver(BlockObserver(didFinish: { _, _ in }))
            _ = told.addObserver(TimeoutObserver(timeout: .seconds(60)))
            guard case .launched(.announceStart) = told.start() else {
                Issue.record("an observer that may act on the start is told first")
                return
            }
        }

        @Test func fullLifeOfAnExecutedOperation() {
            var machine = Self.readyMachine()
            _ = machine.addObserver(BlockObserver(didStart: { _ in }))  // someone to tell of the start
            guard case .launched(let followup) = machine.start() else {
                Issue.record("start did not launch")
                return
            }
            #expect(followup == .announceStart, "announced at once by the thread that started it")
            #expect(machine.state == .executing)
            let beforeAnnouncement = machine.isExecuting()
            #expect(!beforeAnnouncement, "not yet announced")
            _ = machine.startAnnounced()
            let afterAnnouncement = machine.isExecuting()
            #expect(afterAnnouncement)
            #expect(Self.drain(&machine) == ["execute"])
            guard
                case .deliverNow(.finish(let errors, let wasExecuting, _), _) = machine.finish(errors: [
                    TestError(1)
                ])
            else {
                Issue.record("finish refused")
                return
            }
            #expect(errors.count == 1 && wasExecuting)
            #expect(machine.state == .finishing)
            #expect(machine.isExecuting() == true)
            #expect(Self.drain(&machine) == [], "delivered by the caller of finish, not queued")
            _ = machine.markFinished(notified: 1)
            #expect(machine.state == .finished)
            #expect(machine.failed)
            #expect(machine.isExecuting() == false)
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
            #expect(machine.cancel(with: TestError(1), finishesWhenCancelled: true).followup != nil)
            #expect(machine.cancel(with: TestError(2), finishesWhenCancelled: true).followup == nil)
            #expect(ErrorsByValue.equal(machine.errors, [TestError(1), TestError(2)]))
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

        @Test func S1_aFinishWhileCallbacksAreDeliveredIsQueuedBehindThem() {
            var machine = Self.readyMachine()
            _ = machine.addObserver(BlockObserver(didStart: { _ in }))  // someone to tell of the start
            _ = machine.start()
            guard case .announceStart = machine.nextEffect() else {
                Issue.record("didStart was not first")
                return
            }
            _ = machine.startAnnounced()
            // A didStart observer produces, then execute() finishes on another thread meanwhile.
            _ = machine.produce(Foundation.Operation())
            guard case .finishing(let followup) = machine.finish(errors: []) else {
                Issue.record("the finish was not queued")
                return
            }
            #expect(followup.isEmpty, "the thread delivering didStart delivers it")
            #expect(Self.drain(&machine) == ["didProduce", "finish(0,executed)"])
        }

        /// A start while another thread delivers callbacks waits its turn, and `isExecuting` turns
        /// `true` only when that thread announces it.
        @Test func S1_aStartQueuedBehindOtherCallbacksIsAnnouncedInItsTurn() {
            var machine = Self.readyMachine()
            _ = machine.addObserver(BlockObserver(didStart: { _ in }))  // someone to tell of the start
            #expect(machine.produce(Foundation.Operation()) == .deliver)  // this thread delivers
            guard case .launched(let followup) = machine.start() else {
                Issue.record("start did not launch")
                return
            }
            #expect(followup.isEmpty, "the thread delivering announces it")
            let beforeAnnouncement = machine.isExecuting()
            #expect(!beforeAnnouncement)
            guard case .deliver(.didProduce, _) = machine.nextEffect() else {
                Issue.record("didProduce was not first")
                return
            }
            #expect(machine.nextEffect() == .announceStart)
            _ = machine.startAnnounced()
            let afterAnnouncement = machine.isExecuting()
            #expect(afterAnnouncement)
            #expect(Self.drain(&machine) == ["execute"])
        }

        @Test func S5_cancelWhileExecutingWaitsForTheOperationWhenAsked() {
            var machine = Self.readyMachine()
            _ = machine.start()
            _ = Self.drain(&machine)
            _ = machine.cancel(finishesWhenCancelled: false)
            #expect(machine.state == .executing)
            #expect(Self.drain(&machine) == ["didCancel"])
            guard case .deliverNow = machine.finish(errors: []) else {
                Issue.record("its own finish was refused")
                return
            }
        }

        @Test func cancelOnceFinishingBeganChangesNothing() {
            var machine = Self.readyMachine()
            _ = machine.start()
            _ = Self.drain(&machine)
            _ = machine.finish(errors: [])
            #expect(machine.cancel(with: TestError(), finishesWhenCancelled: true).followup == nil)
            #expect(machine.errors.isEmpty, "the cancel's error is not recorded either")
            _ = Self.drain(&machine)
            _ = machine.markFinished(notified: 0)
            #expect(machine.cancel(finishesWhenCancelled: true).followup == nil)
            #expect(!machine.isCancelled)
        }

        @Test func S1_aDidStartObserverThatCancelsPreventsExecute() {
            var machine = Self.readyMachine()
            _ = machine.addObserver(BlockObserver(didStart: { _ in }))  // someone to tell of the start
            _ = machine.start()
            guard case .announceStart = machine.nextEffect() else {
                Issue.record("didStart was not first")
                return
            }
            _ = machine.startAnnounced()
            // While didStart is delivered, an observer cancels: its effects queue behind.
            #expect(machine.cancel(finishesWhenCancelled: true).followup == [])
            #expect(Self.drain(&machine) == ["didCancel", "finish(0,executed)"])
        }

        @Test func S1_aDidStartObserverThatCancelsAnOperationFinishingItselfStillFinishes() {
            var machine = Self.readyMachine()
            _ = machine.addObserver(BlockObserver(didStart: { _ in }))  // someone to tell of the start
            _ = machine.start()
            _ = machine.startAnnounced()
            _ = machine.cancel(finishesWhenCancelled: false)
            #expect(Self.drain(&machine) == ["didCancel", "finish(0,executed)"])
        }

        @Test func S1_callbacksQueuedDuringDidStartComeBeforeExecute() {
            var machine = Self.readyMachine()
            _ = machine.addObserver(BlockObserver(didStart: { _ in }))  // someone to tell of the start
            _ = machine.start()
            _ = machine.startAnnounced()
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

        @Test func S1_anObserverAddedWhileFinishingHearsDidFinishBeforeIsFinishedFlips() {
            var machine = Self.readyMachine()
            _ = machine.start()
            _ = Self.drain(&machine)
            _ = machine.finish(errors: [])
            _ = Self.drain(&machine)
            #expect(
                machine.addObserver(BlockObserver(didStart: { _ in })).isTold == false,
                "still finishing: not told at once")
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

        @Test func S12_finishingReleasesObserversAndWaiters() {
            var machine = Self.readyMachine()
            #expect(machine.addObserver(BlockObserver(didStart: { _ in })).isTold == false)
            _ = machine.start()
            _ = Self.drain(&machine)
            _ = machine.finish(errors: [])
            _ = Self.drain(&machine)
            _ = machine.markFinished(notified: 1)
            #expect(machine.listeners.observers.count == 0)
            #expect(machine.owner == nil)
            #expect(
                machine.addObserver(BlockObserver(didStart: { _ in })).isTold,
                "a late observer is told at once")
        }
    }
}

extension Machine.EvaluatedAction {
    var isReady: Bool { readiness.isReady }
    var followup: Machine.Followup { readiness.followup }
    var isStep: Bool { readiness.isStep }
}

extension Machine.ReadinessAction {
    /// The answer; `false` while a step is handed out instead.
    var isReady: Bool {
        guard case .answer(let isReady, _) = self else { return false }
        return isReady
    }

    var followup: Machine.Followup {
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

extension Machine.CancelAction {
    /// `nil` when the cancel was ignored.
    var followup: Machine.Followup? {
        guard case .cancelled(let followup) = self else { return nil }
        return followup
    }
}

extension Machine.AddObserverAction {
    /// The observer is told `operationDidFinish` at once.
    var isTold: Bool {
        guard case .tellFinished = self else { return false }
        return true
    }
}
