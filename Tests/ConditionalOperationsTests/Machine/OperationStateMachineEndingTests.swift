import Foundation
import Testing

@testable import ConditionalOperations
@testable import ConditionalOperationsMachines

extension ConditionalOperationsTests {
    /// The state machine alone, without threads: what ends an operation (a cancel, an early
    /// finish, a dependency cycle) landing between two events that another thread makes, in the
    /// order the two threads can take the lock.
    @Suite struct OperationStateMachineEndingTests {
        typealias Machine = OperationStateMachine<OperationHost>

        enum Ending: String, CaseIterable, Sendable {
            case cancel, finish, cycle

            func happen(to machine: inout Machine) -> Machine.Followup {
                switch self {
                case .cancel:
                    guard case .cancelled(let followup) = machine.cancel(finishesWhenCancelled: true) else {
                        return []
                    }
                    return followup
                case .finish:
                    guard case .deferred(let followup) = machine.finish(errors: [TestError(1)]) else {
                        return []
                    }
                    return followup
                case .cycle:
                    machine.markInCycle(OperationError.dependencyCycle)
                    return machine.breakCycle()
                }
            }
        }

        /// S7: the sequence that held a category for good. Started by hand, the operation's last
        /// condition answers on one thread, whose event asks for the categories; before that thread
        /// reaches the controller, the operation is ended on another thread and finishes there (the
        /// cancel's withdrawal and the finish's release find no request); then the request is made,
        /// and granted. The requester gives it back: nobody else would.
        @Test(arguments: Ending.allCases)
        func S7_aRequestMadeAfterTheOperationEndedIsGivenBackByTheRequester(ending: Ending) {
            var machine = Machine()
            _ = machine.addCondition(nil, categories: ["a"])
            _ = machine.addCondition(BlockCondition { true }, categories: [])
            #expect(machine.start() == .admit)
            #expect(OperationStateMachineTests.evaluationStep(&machine, context: .start).count == 1)
            #expect(machine.endInlineEvaluation(context: .start) == .answer(false, []))
            // The last answer, on the answering thread.
            let answered = machine.conditionEvaluated(at: 0, .satisfied).readiness
            #expect(answered == .acquire(["a"], parent: nil))
            // Ended on another thread, before the request reaches the controller.
            let ended = ending.happen(to: &machine)
            #expect(
                !ended.releasesCategories, "no request to withdraw: the requester gives it back")
            let delivered = OperationStateMachineTests.drain(&machine)
            #expect(delivered.last?.hasPrefix("finish(") == true, "\(delivered)")
            _ = machine.markFinished(notified: 0)
            #expect(machine.state == .finished)
            // The request, made now, was granted at once.
            #expect(
                machine.endInlineAcquisition(.granted, context: .callback)
                    == .answer(true, .releaseCategories))
        }

        /// S7: the same, the request made before the operation was ended: withdrawn by the
        /// requester too, once it returned, granted or waiting.
        @Test(arguments: Ending.allCases, [true, false])
        func S7_aRequestUnderWayWhenTheOperationEndsIsGivenBackOnceItReturns(ending: Ending, isGranted: Bool)
        {
            var machine = Machine()
            _ = machine.addCondition(nil, categories: ["a"])
            #expect(
                machine.queryReadiness(dependenciesFinished: true, context: .query)
                    == .acquire(["a"], parent: nil))
            _ = ending.happen(to: &machine)
            #expect(machine.state == .ready)
            #expect(
                machine.endInlineAcquisition(isGranted ? .granted : .waits(ahead: 0), context: .query)
                    == .answer(true, .releaseCategories))
            // A grant arriving later still is given back at once.
            #expect(machine.categoriesGranted() == .answer(true, .releaseCategories))
        }
        /// S5, S6: `cancel(with:)` is one event: a finish comes before it or after it, and the
        /// operation ends in one of two outcomes.
        @Test func S6_aFinishBeforeTheCancelWithAnErrorWinsWhole() {
            var machine = OperationStateMachineTests.readyMachine()
            _ = machine.start()
            _ = OperationStateMachineTests.drain(&machine)
            _ = machine.finish(errors: [])
            #expect(machine.cancel(with: TestError(9), finishesWhenCancelled: true) == .ignored)
            #expect(!machine.isCancelled)
            #expect(machine.errors.isEmpty)
        }

        @Test func S5_aCancelWithAnErrorBeforeTheFinishWinsWhole() {
            var machine = OperationStateMachineTests.readyMachine()
            _ = machine.start()
            _ = OperationStateMachineTests.drain(&machine)
            _ = machine.cancel(with: TestError(9), finishesWhenCancelled: true)
            #expect(machine.finish(errors: []) == .ignored)
            #expect(machine.isCancelled)
            #expect(OperationStateMachineTests.drain(&machine) == ["didCancel", "finish(1,executed)"])
        }

        /// An override of `cancel()` that calls `super` later: the error offered meanwhile waits
        /// for the cancel, which records it with its own, before `operationDidCancel`.
        @Test func S4_errorsOfferedBeforeTheCancelAreToldWithIt() {
            var machine = OperationStateMachineTests.readyMachine()
            machine.offerCancelError(TestError(1))
            machine.offerCancelError(TestError(2))
            #expect(machine.reportedErrors.isEmpty)
            guard case .cancelled = machine.cancel(with: TestError(3), finishesWhenCancelled: true) else {
                Issue.record("not cancelled")
                return
            }
            guard case .deliver(.didCancel(let told), _) = machine.nextEffect() else {
                Issue.record("no didCancel")
                return
            }
            #expect(ErrorsByValue.equal(told, [TestError(1), TestError(2), TestError(3)]))
        }

        /// The same override, the finish first: the offered error is dropped with the cancel.
        @Test func S6_aFinishBeforeAnOfferedCancelDropsTheError() {
            var machine = OperationStateMachineTests.readyMachine()
            _ = machine.start()
            _ = OperationStateMachineTests.drain(&machine)
            machine.offerCancelError(TestError(1))
            guard case .deliverNow(.finish(let errors, _, _), _) = machine.finish(errors: []) else {
                Issue.record("not finishing")
                return
            }
            #expect(errors.isEmpty)
            #expect(machine.cancel(finishesWhenCancelled: true) == .ignored)
            #expect(!machine.isCancelled)
            #expect(machine.errors.isEmpty)
        }

        /// The same, finished early before it executed: its own errors stay, the offered one goes.
        @Test func S6_anEarlyFinishKeepsItsErrorsAndDropsAnOfferedOne() {
            var machine = OperationStateMachineTests.readyMachine()
            machine.offerCancelError(TestError(1))
            _ = machine.finish(errors: [TestError(2)])
            _ = machine.start()
            #expect(OperationStateMachineTests.drain(&machine) == ["finish(1,skipped)"])
            #expect(!machine.isCancelled)
            #expect(ErrorsByValue.equal(machine.errors, [TestError(2)]))
        }

        /// An override that called `super` on another thread before `cancel(with:)` returned: the
        /// cancel took effect, and the error still counts while it has not finished (S4).
        @Test func S4_anErrorOfferedAfterTheCancelTookEffectIsAdded() {
            var machine = OperationStateMachineTests.readyMachine()
            _ = machine.start()
            _ = OperationStateMachineTests.drain(&machine)
            _ = machine.cancel(finishesWhenCancelled: false)
            machine.offerCancelError(TestError(1))
            #expect(ErrorsByValue.equal(machine.errors, [TestError(1)]))
            _ = machine.finish(errors: [])
            machine.offerCancelError(TestError(2))
            #expect(ErrorsByValue.equal(machine.errors, [TestError(1)]), "finishing began")
        }
    }
}
