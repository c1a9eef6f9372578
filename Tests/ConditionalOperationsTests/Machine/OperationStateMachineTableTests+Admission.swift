import Foundation
import Testing

@testable import ConditionalOperations
@testable import ConditionalOperationsMachines

extension ConditionalOperationsTests.OperationStateMachineTableTests {
    // Admission, readiness answers and dependency cycles, event by event, in every phase each
    // can happen in (the others trap, see `anImpossibleEventNamesThePhaseAndTheEvent`).

    /// What `enqueue` returns, in a form the table can hold.
    enum EnqueueOutcome: Sendable {
        case misuse
        case ready
        /// Held, with this readiness answer.
        case held(Answer)

        var action: Machine.EnqueueAction {
            switch self {
            case .misuse: .misuse
            case .ready: .ready
            case .held(let answer): .held(answer.action)
            }
        }
    }

    @Test(arguments: [
        (Given.initialized, "ready", EnqueueOutcome.ready),
        (.pendingStarted, "pending(unasked) [start]", .misuse),
        (.pendingAsking, "pending(askingAfterDependencies)", .held(.notReady([]))),
        (.evaluating, "evaluating(1 unanswered)", .held(.notReady([]))),
        (.requesting, "acquiring", .held(.notReady([]))),
        (.acquiring, "acquiring", .held(.notReady([]))),
        (.ready, "ready", .ready),
        (.executing, "executing", .misuse),
        (.draining, "draining [start, finish]", .misuse),
        (.finishing, "finishing(executed)", .misuse),
        (.finished, "finished", .misuse),
    ])
    func S13_enqueue(given: Given, next: String, outcome: EnqueueOutcome) {
        var machine = Self.machine(given)
        #expect(
            machine.enqueue(on: ConditionalOperationQueue(), dependenciesFinished: true) == outcome.action)
        #expect(Self.describe(machine.phase) == next)
    }

    @Test(arguments: [
        (Given.initialized, Machine.SettledReadiness.readDependencies(.unasked)),
        (.pendingStarted, .readDependencies(.unasked)),
        (.pendingAsking, .readDependencies(.askingAfterDependencies)),
        (.evaluating, .answer(false)),
        (.requesting, .answer(false)),
        (.acquiring, .answer(false)),
        (.ready, .readDependencies(.asked)),  // in no queue of the library's: a barrier may wait
        (.executing, .answer(true)),
        (.draining, .answer(true)),
        (.finishing, .answer(true)),
        (.finished, .answer(true)),
    ])
    func S2_anIsReadyQueryThatChangesNothing(given: Given, settled: Machine.SettledReadiness) {
        var machine = Self.machine(given)
        let before = Self.describe(machine.phase)
        #expect(machine.settledReadiness() == settled)
        #expect(Self.describe(machine.phase) == before)
    }

    @Test(arguments: [
        (Given.initialized, "ready [finish]", true),
        (.pendingStarted, "finishing(failed)", true),
        (.pendingAsking, "ready [finish]", true),
        (.evaluating, "ready [finish]", true),
        (.requesting, "ready [finish]", true),
        (.acquiring, "ready [finish]", true),
        (.ready, "ready [finish]", true),
        (.executing, "executing", false),
        (.draining, "draining [start, finish]", false),
        (.finishing, "finishing(executed)", false),
        (.finished, "finished", false),
    ])
    func S9_anOperationInACycleFinishesWithoutExecutingUnlessItStarted(
        given: Given, next: String, isMarked: Bool
    ) {
        var machine = Self.machine(given)
        let errorsBefore = machine.errors.count
        machine.markInCycle(OperationError.dependencyCycle)
        _ = machine.breakCycle()
        _ = ConditionalOperationsTests.OperationStateMachineTests.drain(&machine)
        #expect((machine.errors.count > errorsBefore) == isMarked)
        #expect(Self.describe(machine.phase) == next)
    }

    @Test(arguments: Given.allCases)
    func S1_nothingIsLeftToDeliverOnceAPhaseIsReached(given: Given) {
        var machine = Self.machine(given)
        #expect(machine.nextEffect() == .done)
    }
}

extension ConditionalOperationsTests.OperationStateMachineTableTests {
    // The reports of steps taken outside the lock, in every phase each can come in: the steps
    // began in the first phase of each table, and a cancel or an early finish may have moved the
    // operation on meanwhile.

    @Test(arguments: [
        (Given.pendingAsking, "evaluating(1 unanswered)", false),
        (.ready, "ready", true), (.executing, "executing", true),
        (.draining, "draining [start, finish]", true),
        (.finishing, "finishing(executed)", true), (.finished, "finished", true),
    ])
    func S3_conditionDependenciesAddedWithNoneToWaitFor(given: Given, next: String, isAbandoned: Bool) {
        var machine = Self.machine(given)
        let action = machine.conditionDependenciesAdded(any: false)
        #expect(action == (isAbandoned ? .answer(true, []) : .evaluate([BlockCondition { true }])))
        #expect(Self.describe(machine.phase) == next)
    }

    @Test(arguments: [
        (Given.evaluating, "evaluating(1 unanswered)", Answer.notReady([])),
        (.ready, "ready", .ready([])), (.executing, "executing", .ready([])),
        (.draining, "draining [start, finish]", .ready([])), (.finishing, "finishing(executed)", .ready([])),
        (.finished, "finished", .ready([])),
    ])
    func S2_theInlineEvaluationEnds(given: Given, next: String, answer: Answer) {
        var machine = Self.machine(given)
        #expect(machine.endInlineEvaluation(context: .query) == answer.action)
        #expect(Self.describe(machine.phase) == next)
    }

    // Past `acquiring`, the request was made while a cancel or an early finish ended the
    // operation: it may have been made after they withdrew and released nothing, so the requester
    // gives it back, granted or not.

    @Test(arguments: [
        (Given.requesting, "acquiring", Answer.notReady([])),
        (.ready, "ready", .ready(.releaseCategories)), (.executing, "executing", .ready(.releaseCategories)),
        (.draining, "draining [start, finish]", .ready(.releaseCategories)),
        (.finishing, "finishing(executed)", .ready(.releaseCategories)),
        (.finished, "finished", .ready(.releaseCategories)),
    ])
    func S7_theInlineRequestEndsWithoutAGrant(given: Given, next: String, answer: Answer) {
        var machine = Self.machine(given)
        #expect(machine.endInlineAcquisition(.waits(ahead: 0), context: .query) == answer.action)
        #expect(Self.describe(machine.phase) == next)
    }

    @Test(arguments: [
        (Given.requesting, "ready", Answer.ready([])),
        (.ready, "ready", .ready(.releaseCategories)), (.executing, "executing", .ready(.releaseCategories)),
        (.draining, "draining [start, finish]", .ready(.releaseCategories)),
        (.finishing, "finishing(executed)", .ready(.releaseCategories)),
        (.finished, "finished", .ready(.releaseCategories)),
    ])
    func S7_theInlineRequestEndsGranted(given: Given, next: String, answer: Answer) {
        var machine = Self.machine(given)
        #expect(machine.endInlineAcquisition(.granted, context: .query) == answer.action)
        #expect(Self.describe(machine.phase) == next)
    }

    @Test func S11_aDrainedOperationFinishesWithoutExecuting() {
        var machine = Self.machine(.draining)
        #expect(machine.drained(errors: [TestError(3)]) == .deliver)
        #expect(Self.describe(machine.phase) == "finishing(failed)")
        #expect(ErrorsByValue.equal(machine.errors, [TestError(3)]))
    }

    @Test func S1_aFinishingOperationFinishesOnceEveryObserverHeard() {
        var machine = Self.machine(.finishing)
        guard case .finished = machine.markFinished(notified: 1) else {
            Issue.record("not finished")
            return
        }
        #expect(Self.describe(machine.phase) == "finished")
    }
}

extension ConditionalOperationsTests.OperationStateMachineTableTests {
    /// A sink that records nothing: the machine only writes what it is to be told.
    struct SilentSink: EventSink {
        var hearsStart = false
        func send(_ event: OperationEvent) {}
        func end() {}
    }

    @Test(arguments: Given.allCases)
    func S16_anEventSinkHearsTheStateFirstOrTheEndAtOnce(given: Given) {
        var machine = Self.machine(given)
        let action = machine.addEventSink(SilentSink())
        #expect(action == (given == .finished ? .tellFinished([]) : .added(isCancelled: false)))
        // Told the current state, by the storage before it unlocks; once finished, by the caller.
        #expect(machine.listeners.sinkLog?.hasMessages == (given == .finished ? nil : true))
    }

    /// A sink added once the operation was cancelled hears of no `didCancel`: it is told the
    /// cancel came.
    @Test(arguments: Given.allCases)
    func S16_anEventSinkAddedOnceCancelledIsToldSo(given: Given) {
        var machine = Self.machine(given)
        _ = machine.cancel(finishesWhenCancelled: true)
        let cancelled = machine.isCancelled
        let action = machine.addEventSink(SilentSink())
        #expect(action == (given == .finished ? .tellFinished([]) : .added(isCancelled: cancelled)))
    }

    /// A sink that does not hear the start (a logger, a timeline) leaves a start nobody hears of
    /// to execute at once; one that does (an `events` stream) has it go through the callbacks.
    @Test(arguments: [false, true])
    func S16_onlyASinkHearingTheStartSendsItThroughTheCallbacks(hearsStart: Bool) {
        var machine = Machine()
        _ = machine.addEventSink(SilentSink(hearsStart: hearsStart))
        _ = machine.queryReadiness(dependenciesFinished: true, context: .query)
        let expected: Machine.Followup =
            hearsStart || OperationHost.postsExecutingKVO ? .announceStart : .executeNow
        #expect(machine.start() == .launched(expected))
    }

    @Test(arguments: Given.allCases)
    func S2_readinessIsAnnouncedAgainOnlyWhileReadyAndNotStarted(given: Given) {
        var machine = Self.machine(given)
        #expect(machine.reannouncementDue() == (given == .ready))
    }
}

extension ConditionalOperationsTests.OperationStateMachineTableTests {
    /// What a condition answered, and what came before the start.
    enum Before: String, Sendable, CaseIterable {
        case nothing, cancel, finish
    }

    @Test(arguments: [
        (OperationConditionResult.satisfied, Before.nothing, "executing(execute due)"),
        (.satisfied, .cancel, "finishing(cancelled)"),
        (.satisfied, .finish, "finishing(failed)"),
        (.failed(TestError(4)), .nothing, "finishing(failed)"),
        (.failed(TestError(4)), .cancel, "finishing(cancelled)"),
        (.skipped, .nothing, "finishing(skipped)"),
        (.skipped, .finish, "finishing(failed)"),
        (.skipped, .cancel, "finishing(cancelled)"),
    ])
    func S17_theOneReasonItEndsWithoutExecuting(
        answer: OperationConditionResult, before: Before, next: String
    ) {
        var machine = Machine()
        _ = machine.addObserver(BlockObserver(didStart: { _ in }))
        _ = machine.addCondition(BlockCondition { true }, categories: [])
        _ = ConditionalOperationsTests.OperationStateMachineTests.evaluationStep(&machine)
        _ = machine.conditionEvaluated(at: 0, answer)
        _ = machine.endInlineEvaluation(context: .query)
        switch before {
        case .nothing: break
        case .cancel: _ = machine.cancel(finishesWhenCancelled: true)
        case .finish: _ = machine.finish(errors: [])
        }
        _ = ConditionalOperationsTests.OperationStateMachineTests.drain(&machine)
        _ = machine.start()
        #expect(Self.describe(machine.phase) == next)
        #expect(machine.isSkipped == (next == "finishing(skipped)"))
    }
}
