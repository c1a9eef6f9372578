import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests {
    /// The operation's state machine as tables, without threads: each table is one event tried in
    /// every phase, (phase, event) → (next phase, action), and reads as the specification of that
    /// event. Scenarios over several events are in `OperationStateMachineTests`.
    @Suite struct OperationStateMachineTableTests {
        typealias Machine = OperationStateMachine

        /// The phases an event is tried in, each reached by the events that lead there. Every
        /// machine has one observer, so a start is delivered (`didStart`) on every platform.
        enum Given: String, CaseIterable, CustomStringConvertible {
            /// Nothing happened yet.
            case initialized
            /// `start()` came while a dependency was unfinished.
            case pendingStarted
            /// One condition, its dependency being asked for (S3).
            case pendingAsking
            /// One condition handed out, not answered.
            case evaluating
            /// Categories alone (`MutuallyExclusive`), requested, not granted.
            case acquiring
            /// No condition, every dependency finished, not started.
            case ready
            /// Started; `didStart` delivered and `execute()` called.
            case executing
            /// An operation that drains (a group), finished before it was started.
            case draining
            /// Finished while executing; the finishing callback delivered.
            case finishing
            case finished

            var description: String { rawValue }
        }

        static func machine(_ given: Given) -> Machine {
            var machine = Machine()
            _ = machine.addObserver(BlockObserver(didStart: { _ in }))
            switch given {
            case .initialized:
                break
            case .pendingStarted:
                _ = machine.start()
                _ = machine.queryReadiness(dependenciesFinished: false, context: .start)
            case .pendingAsking:
                _ = machine.addCondition(BlockCondition { true }, categories: [])
                _ = machine.queryReadiness(dependenciesFinished: true, context: .query)
            case .evaluating:
                _ = machine.addCondition(BlockCondition { true }, categories: [])
                OperationStateMachineTests.evaluationStep(&machine)
                _ = machine.endInlineEvaluation(context: .query)
            case .acquiring:
                _ = machine.addCondition(nil, categories: ["a"])
                _ = machine.queryReadiness(dependenciesFinished: true, context: .query)
                _ = machine.endInlineAcquisition(isGranted: false, context: .query)
            case .ready:
                _ = machine.queryReadiness(dependenciesFinished: true, context: .query)
            case .executing, .finishing, .finished:
                _ = machine.queryReadiness(dependenciesFinished: true, context: .query)
                _ = machine.start()
                _ = OperationStateMachineTests.drain(&machine)
                guard given != .executing else { break }
                _ = machine.finish(errors: [])
                _ = OperationStateMachineTests.drain(&machine)
                guard given == .finished else { break }
                _ = machine.markFinished(notified: 1)
            case .draining:
                machine.drainBeforeFinishing()
                _ = machine.finish(errors: [])
                _ = machine.queryReadiness(dependenciesFinished: true, context: .query)
                _ = machine.start()
            }
            return machine
        }

        static func describe(_ phase: Machine.Phase) -> String {
            switch phase {
            case .initialized: "initialized"
            case .pending(let stage): "pending(\(stage))"
            case .evaluating(let evaluation): "evaluating(\(evaluation.answered.unanswered) unanswered)"
            case .acquiring(let acquisition): acquisition.isGranted ? "acquiring(granted)" : "acquiring"
            case .ready(.execute): "ready"
            case .ready(.conditionsFailed): "ready(conditions failed)"
            case .ready(.skipped): "ready(skipped)"
            case .executing(.due): "executing(execute due)"
            case .executing(.called): "executing"
            case .draining: "draining"
            case .finishing(let ending, _):
                ending == .executed ? "finishing(executed)" : "finishing(not executed)"
            case .finished: "finished"
            }
        }

        static func describe(_ followup: Machine.Followup) -> String {
            let names: [(Machine.Followup, String)] = [
                (.releaseCategories, "releaseCategories"), (.handToQueue, "handToQueue"),
                (.announceReady, "announceReady"), (.deliver, "deliver"), (.drain, "drain"),
                (.launchLater, "launchLater"), (.reannounceLater, "reannounceLater"),
                (.executeNow, "executeNow"),
            ]
            let present = names.filter { followup.contains($0.0) }.map(\.1)
            return present.isEmpty ? "nothing" : present.joined(separator: "+")
        }

        static func describe(_ action: Machine.ReadinessAction) -> String {
            switch action {
            case .answer(let isReady, let followup):
                "\(isReady ? "ready" : "not ready"), \(describe(followup))"
            case .readDependencies(let stage): "read dependencies(\(stage))"
            case .askConditionDependencies: "ask condition dependencies"
            case .evaluate: "evaluate"
            case .acquire: "acquire"
            }
        }

        @Test(arguments: [
            (Given.initialized, "ready", "announceReady+deliver"),
            (.pendingStarted, "finishing(not executed)", "deliver"),
            (.pendingAsking, "ready", "announceReady+deliver"),
            (.evaluating, "ready", "announceReady+deliver"),
            (.acquiring, "ready", "releaseCategories+announceReady+deliver"),
            (.ready, "ready", "announceReady+deliver"),
            (.executing, "finishing(executed)", "deliver"),
            (.draining, "draining", "deliver"),
            (.finishing, "finishing(executed)", "ignored"),
            (.finished, "finished", "ignored"),
        ])
        func S4S5_cancel(given: Given, next: String, action: String) {
            var machine = Self.machine(given)
            let described =
                switch machine.cancel(finishesWhenCancelled: true) {
                case .ignored: "ignored"
                case .cancelled(let followup): Self.describe(followup)
                }
            #expect(Self.describe(machine.phase) == next)
            #expect(described == action)
        }

        @Test(arguments: [
            (Given.initialized, "initialized", "deferred: nothing"),
            (.pendingStarted, "pending(unasked)", "deferred: nothing"),
            (.pendingAsking, "pending(askingAfterDependencies)", "deferred: nothing"),
            (.evaluating, "ready", "deferred: announceReady"),
            (.acquiring, "ready", "deferred: releaseCategories+announceReady"),
            (.ready, "ready", "deferred: nothing"),
            (.executing, "finishing(executed)", "deliver the finishing callback now"),
            (.draining, "draining", "ignored"),
            (.finishing, "finishing(executed)", "ignored"),
            (.finished, "finished", "ignored"),
        ])
        func S6_finish(given: Given, next: String, action: String) {
            var machine = Self.machine(given)
            let described =
                switch machine.finish(errors: [TestError(1)]) {
                case .finishing(let followup): "finishing: \(Self.describe(followup))"
                case .deliverNow: "deliver the finishing callback now"
                case .deferred(let followup): "deferred: \(Self.describe(followup))"
                case .ignored: "ignored"
                }
            #expect(Self.describe(machine.phase) == next)
            #expect(described == action)
        }

        @Test(arguments: [
            (Given.initialized, "pending(unasked)", "admit"),
            (.pendingStarted, "pending(unasked)", "misuse"),
            (.pendingAsking, "pending(askingAfterDependencies)", "admit"),
            (.evaluating, "evaluating(1 unanswered)", "wait"),
            (.acquiring, "acquiring", "wait"),
            (.ready, "executing(execute due)", "launched: deliver"),
            (.executing, "executing", "misuse"),
            (.draining, "draining", "misuse"),
            (.finishing, "finishing(executed)", "misuse"),
            (.finished, "finished", "misuse"),
        ])
        func S1S13_start(given: Given, next: String, action: String) {
            var machine = Self.machine(given)
            let described =
                switch machine.start() {
                case .misuse: "misuse"
                case .admit: "admit"
                case .wait: "wait"
                case .launched(let followup): "launched: \(Self.describe(followup))"
                }
            #expect(Self.describe(machine.phase) == next)
            #expect(described == action)
        }

        @Test(arguments: [
            (Given.initialized, "ready", "ready, nothing"),
            (.pendingStarted, "ready", "ready, launchLater"),
            (.pendingAsking, "pending(askingAfterDependencies)", "not ready, nothing"),
            (.evaluating, "evaluating(1 unanswered)", "not ready, nothing"),
            (.acquiring, "acquiring", "not ready, nothing"),
            (.ready, "ready", "ready, nothing"),
            (.executing, "executing", "ready, nothing"),
            (.draining, "draining", "ready, nothing"),
            (.finishing, "finishing(executed)", "ready, nothing"),
            (.finished, "finished", "ready, nothing"),
        ])
        func S2_anIsReadyQueryWithEveryDependencyFinished(given: Given, next: String, action: String) {
            var machine = Self.machine(given)
            let answer = machine.queryReadiness(dependenciesFinished: true, context: .query)
            #expect(Self.describe(machine.phase) == next)
            #expect(Self.describe(answer) == action)
        }

        @Test(arguments: [
            (Given.evaluating, "ready", "ready, announceReady"),
            (.acquiring, "acquiring", "not ready, nothing"),
            (.ready, "ready", "ready, nothing"),
            (.executing, "executing", "ready, nothing"),
            (.draining, "draining", "ready, nothing"),
            (.finishing, "finishing(executed)", "ready, nothing"),
            (.finished, "finished", "ready, nothing"),
        ])
        func S2_aConditionAnswers(given: Given, next: String, action: String) {
            var machine = Self.machine(given)
            let answered = machine.conditionEvaluated(at: 0, .satisfied)
            #expect(Self.describe(machine.phase) == next)
            #expect(Self.describe(answered.readiness) == action)
        }

        @Test(arguments: [
            (Given.acquiring, "ready", "ready, announceReady"),
            (.ready, "ready", "ready, releaseCategories"),
            (.executing, "executing", "ready, releaseCategories"),
            (.draining, "draining", "ready, releaseCategories"),
            (.finishing, "finishing(executed)", "ready, releaseCategories"),
            (.finished, "finished", "ready, releaseCategories"),
        ])
        func S7_categoriesAreGranted(given: Given, next: String, action: String) {
            var machine = Self.machine(given)
            let granted = machine.categoriesGranted()
            #expect(Self.describe(machine.phase) == next)
            #expect(Self.describe(granted) == action)
        }

        @Test(arguments: [
            (Given.initialized, "added"),
            (.pendingStarted, "added"),
            (.pendingAsking, "misuse"),
            (.evaluating, "misuse"),
            (.acquiring, "misuse"),
            (.ready, "misuse"),
            (.executing, "misuse"),
            (.draining, "misuse"),
            (.finishing, "misuse"),
            (.finished, "misuse"),
        ])
        func S13_addCondition(given: Given, action: String) {
            var machine = Self.machine(given)
            let added = machine.addCondition(BlockCondition { true }, categories: [])
            #expect("\(added)" == action)
        }

        @Test(arguments: Given.allCases)
        func S13_aCancelledOperationIgnoresALateCondition(given: Given) {
            var machine = Self.machine(given)
            guard case .cancelled = machine.cancel(finishesWhenCancelled: false) else { return }
            // Cancelled, it is ready (S4): its conditions would never be asked.
            let added = machine.addCondition(BlockCondition { true }, categories: [])
            #expect("\(added)" == "ignored", "cancelled in \(given)")
        }

        /// An event that cannot happen in a phase stops the process, naming both.
        #if compiler(>=6.2)  // exit tests arrived in Swift Testing 6.2
            @Test func anImpossibleEventNamesThePhaseAndTheEvent() async {
                let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                    var machine = Machine()
                    _ = machine.categoriesGranted()
                }
                let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
                #expect(message.contains("categoriesGranted in phase initialized"))
            }
        #endif
    }
}
