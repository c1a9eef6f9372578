import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests.CompositionTests {
    /// A retry operation's attempts as a value, without threads: each table is one event tried in
    /// every state, (state, event) → (next state, action).
    @Suite struct AttemptStateMachineTests {
        typealias Machine = AttemptStateMachine<String, String>

        /// The states an event is tried in, each reached by the events that lead there.
        enum Given: String, CaseIterable, CustomStringConvertible {
            case idle, making, running, retryingNow, waitingForTimer, waiting, finished
            case idleCancelled, makingCancelled

            var description: String { rawValue }
        }

        static func machine(_ given: Given) -> Machine {
            var machine = Machine()
            switch given {
            case .idle:
                break
            case .idleCancelled:
                _ = machine.cancel()
            case .making, .makingCancelled:
                _ = machine.startAttempt(afterBackoff: false)
                if given == .makingCancelled { _ = machine.cancel() }
            case .running, .retryingNow, .waitingForTimer, .waiting, .finished:
                _ = machine.startAttempt(afterBackoff: false)
                _ = machine.attemptMade("first")
                switch given {
                case .retryingNow: _ = machine.attemptEnded(errors: [TestError(1)], nextAfter: 0)
                case .waitingForTimer: _ = machine.attemptEnded(errors: [TestError(1)], nextAfter: 1)
                case .waiting:
                    _ = machine.attemptEnded(errors: [TestError(1)], nextAfter: 1)
                    _ = machine.timerMade("timer")
                case .finished: machine.finishAfterAttempt()
                default: break
                }
            }
            return machine
        }

        static func describe(_ machine: Machine) -> String {
            let state =
                switch machine.state {
                case .idle(let lastErrors): "idle(\(lastErrors.count) errors)"
                case .making(let number): "making(\(number))"
                case .running(let attempt, let number): "running(\(attempt), \(number))"
                case .waiting(let timer, let lastErrors):
                    "waiting(\(timer ?? "no timer"), \(lastErrors.count) errors)"
                case .finished: "finished"
                }
            return machine.isCancelled ? "\(state), cancelled" : state
        }

        @Test(arguments: [
            (Given.idle, "idle(0 errors), cancelled", "none"),
            (.making, "making(1), cancelled", "none"),
            (.running, "running(first, 1), cancelled", "cancel attempt first"),
            (.retryingNow, "idle(1 errors), cancelled", "none"),
            (.waitingForTimer, "finished, cancelled", "end wait (no timer), 1 errors"),
            (.waiting, "finished, cancelled", "end wait (timer), 1 errors"),
            (.finished, "finished, cancelled", "none"),
            (.idleCancelled, "idle(0 errors), cancelled", "none"),
        ])
        func cancel(given: Given, next: String, action: String) {
            var machine = Self.machine(given)
            let described =
                switch machine.cancel() {
                case .none: "none"
                case .cancelAttempt(let attempt): "cancel attempt \(attempt)"
                case .endWait(let timer, let errors):
                    "end wait (\(timer ?? "no timer")), \(errors.count) errors"
                }
            #expect(Self.describe(machine) == next)
            #expect(described == action)
        }

        @Test(arguments: [
            (Given.idle, false, "making(1)", "make 1"),
            (.retryingNow, false, "making(2)", "make 2"),
            (.waiting, true, "making(2)", "make 2"),
            (.idleCancelled, false, "finished, cancelled", "finish with 0 errors"),
            (.finished, true, "finished", "none"),
        ])
        func startAttempt(given: Given, afterBackoff: Bool, next: String, action: String) {
            var machine = Self.machine(given)
            let described =
                switch machine.startAttempt(afterBackoff: afterBackoff) {
                case .none: "none"
                case .finish(let errors): "finish with \(errors.count) errors"
                case .make(let number): "make \(number)"
                }
            #expect(Self.describe(machine) == next)
            #expect(described == action)
        }

        @Test func aCancelWhileTheWaitIsEndedFinishesWithTheLastErrors() {
            var machine = Self.machine(.retryingNow)
            _ = machine.cancel()
            guard case .finish(let errors) = machine.startAttempt(afterBackoff: false) else {
                Issue.record("a cancelled retry started another attempt")
                return
            }
            #expect(errors.map { $0 as? TestError } == [TestError(1)])
        }

        @Test func noAttemptMadeFinishes() {
            var machine = Self.machine(.making)
            machine.noAttemptMade()
            #expect(Self.describe(machine) == "finished")
        }

        @Test(arguments: [
            (Given.making, "running(second, 1)", "run"),
            (.makingCancelled, "running(second, 1), cancelled", "run cancelled"),
        ])
        func attemptMade(given: Given, next: String, action: String) {
            var machine = Self.machine(given)
            let made = machine.attemptMade("second")
            #expect(Self.describe(machine) == next)
            #expect((made == .run ? "run" : "run cancelled") == action)
        }

        @Test(arguments: [
            (Double?.none, [1], false, "finished", "finish"),
            (nil, [], false, "finished", "finish, cancelling"),
            (0, [1], false, "idle(1 errors)", "retry now"),
            (2, [1], false, "waiting(no timer, 1 errors)", "wait 2.0 s"),
            (2, [1], true, "finished, cancelled", "finish"),
        ])
        func attemptEnded(delay: Double?, errors: [Int], cancelled: Bool, next: String, action: String) {
            var machine = Self.machine(.running)
            if cancelled { _ = machine.cancel() }
            let described =
                switch machine.attemptEnded(errors: errors.map { TestError($0) }, nextAfter: delay) {
                case .finish(let cancelling): cancelling ? "finish, cancelling" : "finish"
                case .retryNow: "retry now"
                case .wait(let delay): "wait \(delay) s"
                }
            #expect(Self.describe(machine) == next)
            #expect(described == action)
        }

        @Test(arguments: [
            (Given.waitingForTimer, "waiting(timer, 1 errors)", "resume"),
            (.finished, "finished", "discard"),
        ])
        func timerMade(given: Given, next: String, action: String) {
            var machine = Self.machine(given)
            let made = machine.timerMade("timer")
            #expect(Self.describe(machine) == next)
            #expect((made == .resume ? "resume" : "discard") == action)
        }

        @Test func anAttemptCountsOnceStarted() {
            var machine = Self.machine(.retryingNow)
            #expect(machine.attempts == 1)
            _ = machine.startAttempt(afterBackoff: false)
            #expect(machine.attempts == 2)
        }
    }
}
