import ConditionalOperationsMachines
import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests.CompositionTests {
    /// The attempts of a retry or repeat operation as a value, without threads: each table is one
    /// event tried in every phase it can happen in, (phase, event) → (next phase, action); the
    /// other pairs are in `AttemptStateMachineTrapTests`. The attempts are strings, the timer a
    /// string, what an attempt leaves a number.
    @Suite struct AttemptStateMachineTests {
        typealias Machine = AttemptStateMachine<String, String, Int>
        typealias Phase = Machine.Phase

        /// The phases an event is tried in, each reached by the events that lead there.
        enum Given: String, Codable, CaseIterable, CustomStringConvertible {
            case idle, idleCancelled
            case making, makingCancelled
            /// Attempt 1, "first", runs.
            case running, runningCancelled
            /// Attempt 1 ended, leaving 1; the wait is being chosen.
            case deciding, decidingCancelled
            /// Attempt 2 starts at once.
            case due, dueCancelled
            /// A wait of 2 s, its timer being made; then made.
            case waitingForTimer, waiting
            /// Attempt 1 stopped the operation.
            case finished

            var description: String { rawValue }

            /// How a trap's message names the phase.
            var phaseName: String {
                switch self {
                case .idle, .idleCancelled: "idle"
                case .making, .makingCancelled: "making"
                case .running, .runningCancelled: "running"
                case .deciding, .decidingCancelled: "deciding"
                case .due, .dueCancelled: "due"
                case .waitingForTimer, .waiting: "waiting"
                case .finished: "finished"
                }
            }
        }

        static func machine(_ given: Given) -> Machine {
            var machine = Machine(first: 0)
            let cancels = given.rawValue.hasSuffix("Cancelled")
            switch given {
            case .idle, .idleCancelled:
                break
            case .making, .makingCancelled:
                _ = machine.start()
            case .running, .runningCancelled, .finished:
                _ = machine.start()
                _ = machine.attemptMade("first")
                if given == .finished { _ = machine.attemptEnded(.stop([])) }
            case .deciding, .decidingCancelled, .due, .dueCancelled, .waitingForTimer, .waiting:
                _ = machine.start()
                _ = machine.attemptMade("first")
                _ = machine.attemptEnded(.goOn(1))
                switch given {
                case .due, .dueCancelled: _ = machine.delayChosen(0)
                case .waitingForTimer: _ = machine.delayChosen(2)
                case .waiting:
                    _ = machine.delayChosen(2)
                    _ = machine.timerMade("timer")
                default: break
                }
            }
            if cancels { _ = machine.cancel() }
            return machine
        }

        @Test(arguments: [
            (Given.idle, Phase.making(number: 1, cancelled: false), Machine.StartAction.make(number: 1, 0)),
            // Cancelled after the operation's start, before `execute()`: no attempt.
            (.idleCancelled, .finished(made: 0), .finish(0)),
        ])
        func start(given: Given, next: Phase, action: Machine.StartAction) {
            var machine = Self.machine(given)
            #expect(machine.start() == action)
            #expect(machine.phase == next)
        }

        @Test(arguments: [
            (Given.due, Phase.making(number: 2, cancelled: false), Machine.StartAction.make(number: 2, 1)),
            (.dueCancelled, .finished(made: 1), .finish(1)),
        ])
        func nextDue(given: Given, next: Phase, action: Machine.StartAction) {
            var machine = Self.machine(given)
            #expect(machine.nextDue() == action)
            #expect(machine.phase == next)
        }

        @Test(arguments: [
            (
                Given.waiting, Phase.making(number: 2, cancelled: false),
                Machine.StartAction.make(number: 2, 1)
            ),
            // A cancel ended the wait, and finished the operation, first.
            (.finished, .finished(made: 1), .none),
        ])
        func timerFired(given: Given, next: Phase, action: Machine.StartAction) {
            var machine = Self.machine(given)
            #expect(machine.timerFired() == action)
            #expect(machine.phase == next)
        }

        @Test(arguments: [
            (
                Given.making, String?("second"), Phase.running("second", number: 1, cancelled: false),
                Machine.MadeAction.run
            ),
            (.makingCancelled, "second", .running("second", number: 1, cancelled: true), .runCancelled),
            // None was made (a repeat's `makeIteration` returned nil): it does not count.
            (.making, nil, .finished(made: 0), .finish),
            (.makingCancelled, nil, .finished(made: 0), .finish),
        ])
        func attemptMade(given: Given, attempt: String?, next: Phase, action: Machine.MadeAction) {
            var machine = Self.machine(given)
            #expect(machine.attemptMade(attempt) == action)
            #expect(machine.phase == next)
        }

        @Test(arguments: [
            (Given.idle, Phase.idle(0, cancelled: true), Machine.CancelAction.none),
            (.making, .making(number: 1, cancelled: true), .none),
            (.running, .running("first", number: 1, cancelled: true), .cancelAttempt("first")),
            (.deciding, .deciding(number: 1, 1, cancelled: true), .none),
            (.due, .due(number: 1, 1, cancelled: true), .none),
            (.waitingForTimer, .finished(made: 1), .endWait(nil, 1)),
            (.waiting, .finished(made: 1), .endWait("timer", 1)),
            (.finished, .finished(made: 1), .none),
        ])
        func cancel(given: Given, next: Phase, action: Machine.CancelAction) {
            var machine = Self.machine(given)
            #expect(machine.cancel() == action)
            #expect(machine.phase == next)
        }

        /// What `attemptEnded` returned, for comparing (its errors by their ids).
        static func describe(_ action: Machine.EndAction) -> String {
            switch action {
            case .finishWithAttempt(let errors): "finish with the attempt, errors \(testErrorIDs(errors))"
            case .finish(let carried): "finish(\(carried))"
            case .decide(let number, let carried): "decide after \(number), leaving \(carried)"
            }
        }

        @Test(arguments: [
            (Given.running, true, Phase.finished(made: 1), "finish with the attempt, errors [7]"),
            // Its outcome is the operation's, cancelled or not (a retry's success).
            (.runningCancelled, true, .finished(made: 1), "finish with the attempt, errors [7]"),
            (.running, false, .deciding(number: 1, 2, cancelled: false), "decide after 1, leaving 2"),
            // No other starts after a cancel: the user's code is not asked.
            (.runningCancelled, false, .finished(made: 1), "finish(2)"),
        ])
        func attemptEnded(given: Given, stops: Bool, next: Phase, action: String) {
            var machine = Self.machine(given)
            let verdict: Machine.Verdict = stops ? .stop([TestError(7)]) : .goOn(2)
            #expect(Self.describe(machine.attemptEnded(verdict)) == action)
            #expect(machine.phase == next)
        }

        @Test(arguments: [
            (Given.deciding, TimeInterval?.none, Phase.finished(made: 1), Machine.DecidedAction.finish(1)),
            (.deciding, 0, .due(number: 1, 1, cancelled: false), .startNow),
            (.deciding, -1, .due(number: 1, 1, cancelled: false), .startNow),
            (.deciding, 2, .waiting(nil, number: 1, 1), .wait(2)),
            // Cancelled while the wait was chosen: whatever it is, none.
            (.decidingCancelled, nil, .finished(made: 1), .finish(1)),
            (.decidingCancelled, 0, .finished(made: 1), .finish(1)),
            (.decidingCancelled, 2, .finished(made: 1), .finish(1)),
        ])
        func delayChosen(given: Given, delay: TimeInterval?, next: Phase, action: Machine.DecidedAction) {
            var machine = Self.machine(given)
            #expect(machine.delayChosen(delay) == action)
            #expect(machine.phase == next)
        }

        @Test(arguments: [
            (Given.waitingForTimer, Phase.waiting("timer", number: 1, 1), Machine.TimerMadeAction.resume),
            // Cancelled while it was made.
            (.finished, .finished(made: 1), .discard),
        ])
        func timerMade(given: Given, next: Phase, action: Machine.TimerMadeAction) {
            var machine = Self.machine(given)
            #expect(machine.timerMade("timer") == action)
            #expect(machine.phase == next)
        }

        /// A retry counts the attempt being made (`attemptCount`), a repeat does not
        /// (`iterationCount`: it may turn out to be none).
        @Test(arguments: [
            (Given.idle, 0, 0), (.making, 1, 0), (.running, 1, 1), (.deciding, 1, 1), (.due, 1, 1),
            (.waiting, 1, 1), (.finished, 1, 1),
        ])
        func counts(given: Given, started: Int, made: Int) {
            let machine = Self.machine(given)
            #expect(machine.started == started)
            #expect(machine.made == made)
        }

        @Test func theSecondAttemptIsGivenWhatTheFirstLeft() {
            var machine = Self.machine(.due)
            #expect(machine.nextDue() == .make(number: 2, 1))
            #expect(machine.attemptMade("second") == .run)
            #expect(machine.started == 2)
            #expect(Self.describe(machine.attemptEnded(.goOn(3))) == "decide after 2, leaving 3")
        }
    }
}
