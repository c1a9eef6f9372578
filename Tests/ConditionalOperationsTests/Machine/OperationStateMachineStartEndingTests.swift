import Foundation
import Testing

@testable import ConditionalOperations
@testable import ConditionalOperationsMachines

extension ConditionalOperationsTests {
    /// The state machine alone, without threads: the reason an operation ended is true. One that
    /// was launched (`isExecuting`, `didStart` told) and then cancelled or finished before
    /// `execute()` was called did not execute (S1): it ends cancelled or finished early, not
    /// executed, while `isExecuting` stays `true` until `isFinished` flips, as KVO announced.
    @Suite struct OperationStateMachineStartEndingTests {
        typealias Machine = OperationStateMachine<OperationHost>

        /// What ends the operation, and when.
        enum Scenario: String, CaseIterable, CustomStringConvertible {
            /// A `didStart` observer cancels it.
            case cancelledByDidStart
            /// The same, for an operation that finishes itself once cancelled (S5).
            case cancelledByDidStartFinishingItself
            /// A `didStart` observer finishes it (S6).
            case finishedByDidStart
            /// A `didStart` observer cancels an operation that finishes itself (S5), which then
            /// finishes before `execute()` was due: the cancel still beats the finish.
            case cancelledByDidStartThenFinished
            /// A `didStart` observer cancels an operation that drains (a group, S11).
            case groupCancelledByDidStart
            /// A `didStart` observer finishes an operation that drains.
            case groupFinishedByDidStart
            /// Cancelled once `execute()` was called (S5).
            case cancelledWhileExecuting
            /// Cancelled before it was started (S4).
            case cancelledBeforeStart
            /// The same, for an operation that drains.
            case groupCancelledBeforeStart

            var description: String { rawValue }

            var drains: Bool { rawValue.hasPrefix("group") }

            /// The machine in `finishing`, its finishing callback not delivered yet.
            func finishingMachine() -> (Machine, wasExecuting: Bool?) {
                var machine = Machine()
                if drains { machine.drainBeforeFinishing() }
                _ = machine.addObserver(BlockObserver(didStart: { _ in }))  // someone to tell of the start
                #expect(machine.queryReadiness(dependenciesFinished: true, context: .query).isReady)
                if self == .cancelledBeforeStart || self == .groupCancelledBeforeStart {
                    _ = machine.cancel(finishesWhenCancelled: !drains)
                    #expect(OperationStateMachineTests.drain(&machine) == ["didCancel"])
                    // A group's starting thread drains it.
                    if case .launched(let followup) = machine.start(), followup.running == .drain {
                        _ = machine.drained(errors: [])
                    }
                } else {
                    _ = machine.start()
                    guard case .announceStart = machine.nextEffect() else {
                        Issue.record("didStart was not first")
                        return (machine, nil)
                    }
                    _ = machine.startAnnounced()  // didStart is being delivered
                    switch self {
                    case .cancelledByDidStart: _ = machine.cancel(finishesWhenCancelled: true)
                    case .cancelledByDidStartFinishingItself, .groupCancelledByDidStart:
                        _ = machine.cancel(finishesWhenCancelled: false)
                    case .cancelledByDidStartThenFinished:
                        _ = machine.cancel(finishesWhenCancelled: false)
                        _ = machine.finish(errors: [])
                    case .finishedByDidStart, .groupFinishedByDidStart:
                        // A group's finishing thread drains it.
                        if case .deferred(let followup) = machine.finish(errors: []),
                            followup.running == .drain
                        {
                            _ = machine.drained(errors: [])
                        }
                    case .cancelledWhileExecuting:
                        guard case .execute = machine.nextEffect() else {
                            Issue.record("execute() was not due")
                            return (machine, nil)
                        }
                        _ = machine.cancel(finishesWhenCancelled: true)
                    case .cancelledBeforeStart, .groupCancelledBeforeStart: break
                    }
                }
                var wasExecuting: Bool?
                while wasExecuting == nil {
                    switch machine.nextEffect() {
                    case .deliver(.finish(_, let executing, _), _): wasExecuting = executing
                    case .deliver: continue
                    case .announceStart: _ = machine.startAnnounced()
                    case .drain:
                        let drained = machine.drained(errors: [])
                        #expect(drained == .deliver)
                    case .execute, .done:
                        Issue.record("\(self): no finish was delivered")
                        return (machine, nil)
                    }
                }
                return (machine, wasExecuting)
            }
        }

        @Test(arguments: [
            // Launched, `execute()` never called: ended by what ended it; `isExecuting` stays
            // `true` until `isFinished` flips, and both are announced then.
            (Scenario.cancelledByDidStart, "finishing(cancelledAsItStarted)", true),
            (.cancelledByDidStartFinishingItself, "finishing(cancelledAsItStarted)", true),
            (.finishedByDidStart, "finishing(finishedAsItStarted)", true),
            (.cancelledByDidStartThenFinished, "finishing(cancelledAsItStarted)", true),
            (.groupCancelledByDidStart, "finishing(cancelledAsItStarted)", true),
            (.groupFinishedByDidStart, "finishing(finishedAsItStarted)", true),
            // `execute()` was called: it executed, cancelled or not.
            (.cancelledWhileExecuting, "finishing(executed)", true),
            // Never launched.
            (.cancelledBeforeStart, "finishing(cancelled)", false),
            (.groupCancelledBeforeStart, "finishing(cancelled)", false),
        ])
        func S1_theEndingSaysWhetherItExecuted(scenario: Scenario, phase: String, wasLaunched: Bool) {
            var (machine, wasExecuting) = scenario.finishingMachine()
            #expect(OperationStateMachineTableTests.describe(machine.phase) == phase)
            #expect(wasExecuting == wasLaunched, "isExecuting is announced as it turns false")
            let isExecuting = machine.isExecuting()
            #expect(isExecuting == wasLaunched, "isExecuting until isFinished flips")
            _ = machine.markFinished(notified: 1)
            let isExecutingOnceFinished = machine.isExecuting()
            #expect(!isExecutingOnceFinished)
            guard case .finished(let ending) = machine.diagnosticSnapshot().waiting else {
                Issue.record("\(scenario): not finished")
                return
            }
            #expect("finishing(\(ending))" == phase, "the finished operation keeps its ending")
        }
    }
}
