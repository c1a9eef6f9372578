import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests {
    /// An operation that runs others (a group) cancelled or finished while `didStart` is delivered:
    /// `execute()` is not called (S1), what it runs still runs and finishes first (S11), and the
    /// first finish wins (S6).
    @Suite struct OperationStateMachineDrainTests {
        @Test func S11_aDidStartObserverThatCancelsAGroupDrainsItsChildrenInsteadOfExecuting() {
            var machine = OperationStateMachineTests.readyMachine()
            machine.drainBeforeFinishing()
            _ = machine.addObserver(BlockObserver(didStart: { _ in }))  // someone to tell of the start
            _ = machine.start()
            #expect(machine.nextEffect() == .announceStart)
            _ = machine.startAnnounced()  // didStart is being delivered
            _ = machine.cancel(finishesWhenCancelled: false)
            #expect(
                OperationStateMachineTests.drain(&machine) == ["didCancel", "drain"],
                "S1: no execute(); S11: the children run")
            #expect(machine.state == .executing)
            #expect(machine.drained(errors: [TestError()]) == .deliver)
            #expect(OperationStateMachineTests.drain(&machine) == ["finish(1,executed)"])
        }

        @Test func S6_aFinishWhileAGroupDrainsIsRecordedAndItFinishesOnceDrained() {
            var machine = OperationStateMachineTests.readyMachine()
            machine.drainBeforeFinishing()
            _ = machine.addObserver(BlockObserver(didStart: { _ in }))
            _ = machine.start()
            #expect(machine.nextEffect() == .announceStart)
            _ = machine.startAnnounced()  // didStart is being delivered
            _ = machine.cancel(finishesWhenCancelled: false)
            _ = OperationStateMachineTests.drain(&machine)
            #expect(machine.finish(errors: [TestError(1)]) == .deferred([]))
            #expect(machine.finish(errors: [TestError(2)]) == .ignored, "S6: the first finish wins")
            #expect(machine.state == .executing)
            #expect(machine.drained(errors: [TestError(3)]) == .deliver)
            #expect(OperationStateMachineTests.drain(&machine) == ["finish(2,executed)"])
        }

        @Test func S11_aDidStartObserverThatFinishesAGroupDrainsItsChildrenInsteadOfExecuting() {
            var machine = OperationStateMachineTests.readyMachine()
            machine.drainBeforeFinishing()
            _ = machine.addObserver(BlockObserver(didStart: { _ in }))
            _ = machine.start()
            #expect(machine.nextEffect() == .announceStart)
            _ = machine.startAnnounced()  // didStart is being delivered
            #expect(
                machine.finish(errors: [TestError(1)]) == .deferred(.drain), "the finishing thread drains")
            #expect(OperationStateMachineTests.drain(&machine) == [], "S1: no execute()")
            #expect(machine.drained(errors: []) == .deliver)
            #expect(OperationStateMachineTests.drain(&machine) == ["finish(1,executed)"])
        }
    }
}
