import Foundation
import Testing

@testable import ConditionalOperations
@testable import ConditionalOperationsMachines

extension ConditionalOperationsTests {
    /// The operation's state machine as tables, without threads: each table is one event tried in
    /// every phase, (phase, event) → (next phase, action), and reads as the specification of that
    /// event. Scenarios over several events are in `OperationStateMachineTests`.
    @Suite struct OperationStateMachineTableTests {
        typealias Machine = OperationStateMachine<OperationHost>

        /// The phases an event is tried in, each reached by the events that lead there. Every
        /// machine has one observer, so a start is delivered (`didStart`) on every platform.
        enum Given: String, Codable, CaseIterable, CustomStringConvertible {
            /// Nothing happened yet.
            case initialized
            /// `start()` came while a dependency was unfinished.
            case pendingStarted
            /// One condition, its dependency being asked for (S3).
            case pendingAsking
            /// One condition handed out, not answered.
            case evaluating
            /// Categories alone (`MutuallyExclusive`), the request being made outside the lock: it
            /// has not returned, and no grant came.
            case requesting
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
            case .requesting, .acquiring:
                _ = machine.addCondition(nil, categories: ["a"])
                _ = machine.queryReadiness(dependenciesFinished: true, context: .query)
                guard given == .acquiring else { break }
                _ = machine.endInlineAcquisition(.waits(ahead: 0), context: .query)
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
            let described: String
            switch phase {
            case .initialized: described = "initialized"
            case .pending(let stage, _, _): described = "pending(\(stage))"
            case .evaluating(let evaluation, _):
                described = "evaluating(\(evaluation.answered.unanswered) unanswered)"
            case .acquiring(let acquisition, _):
                described = acquisition.isGranted ? "acquiring(granted)" : "acquiring"
            case .ready(.execute, _): described = "ready"
            case .ready(.conditionsFailed, _): described = "ready(conditions failed)"
            case .ready(.skipped, _): described = "ready(skipped)"
            case .ready(.joined, _): described = "ready(joined)"
            case .joining: described = "joining"
            case .executing(.due): described = "executing(execute due)"
            case .executing(.called): described = "executing"
            case .executing(.draining): described = "executing(draining)"
            case .draining: described = "draining"
            case .finishing(let ending, _):
                described = "finishing(\(ending))"
            case .finished: described = "finished"
            }
            return described + describe(requestsOf: phase)
        }

        /// What a phase carries of its callers' requests and of its dependencies' count: " [start]",
        /// " [start, finish]", " [finish, late dependency, dependency removed]", or nothing.
        static func describe(requestsOf phase: Machine.Phase) -> String {
            var asked: Machine.Asked = []
            var count = Machine.DependencyCount.counted
            var late = Machine.LateDependency.Awaited.none
            switch phase {
            case .initialized(let carried, let carriedCount, _), .pending(_, let carried, let carriedCount):
                (asked, count) = (carried, carriedCount)
            case .evaluating(_, let passed), .acquiring(_, let passed), .ready(_, let passed):
                (asked, count, late) = (passed.asked, passed.late.count, passed.late.awaited)
            case .joining(let carried):
                asked = carried
            case .draining(_, let finishRequested):
                asked = finishRequested ? [.start, .finish] : .start
            case .executing, .finishing, .finished:
                return ""
            }
            var names = [(Machine.Asked.start, "start"), (.finish, "finish")].filter { asked.contains($0.0) }
                .map(\.1)
            switch late {
            case .none: break
            case .awaited: names.append("late dependency")
            case .startDeclined: names += ["late dependency", "start declined"]
            }
            if count == .stale { names.append("dependency removed") }
            return names.isEmpty ? "" : " [\(names.joined(separator: ", "))]"
        }

        @Test(arguments: [
            (Given.initialized, "ready", Machine.CancelAction.cancelled([.announceReady, .deliver])),
            (.pendingStarted, "finishing(cancelled)", .cancelled(.deliver)),
            (.pendingAsking, "ready", .cancelled([.announceReady, .deliver])),
            (.evaluating, "ready", .cancelled([.announceReady, .deliver])),
            // The requester gives back what it requested once its request returned.
            (.requesting, "ready", .cancelled([.announceReady, .deliver])),
            (.acquiring, "ready", .cancelled([.releaseCategories, .announceReady, .deliver])),
            (.ready, "ready", .cancelled([.announceReady, .deliver])),
            (.executing, "finishing(executed)", .cancelled(.deliver)),
            (.draining, "draining [start, finish]", .cancelled(.deliver)),
            (.finishing, "finishing(executed)", .ignored),
            (.finished, "finished", .ignored),
        ])
        func S4S5_cancel(given: Given, next: String, action: Machine.CancelAction) {
            var machine = Self.machine(given)
            #expect(machine.cancel(finishesWhenCancelled: true) == action)
            #expect(Self.describe(machine.phase) == next)
        }

        /// A readiness answer, in a form the table can hold.
        struct Answer: Sendable {
            let isReady: Bool
            let followup: Machine.Followup

            static func ready(_ followup: Machine.Followup) -> Answer {
                Answer(isReady: true, followup: followup)
            }
            static func notReady(_ followup: Machine.Followup) -> Answer {
                Answer(isReady: false, followup: followup)
            }

            var action: Machine.ReadinessAction { .answer(isReady, followup) }
        }

        /// What `finish` returns, in a form the table can hold: the finishing callback handed out
        /// to deliver now is the finish of an operation that executed, with the one error and the
        /// one observer of ``machine(_:)``.
        enum FinishOutcome: Sendable {
            case finishing(Machine.Followup)
            case deliverNow
            case deferred(Machine.Followup)
            case ignored

            var action: Machine.FinishAction {
                switch self {
                case .finishing(let followup): .finishing(followup)
                case .deferred(let followup): .deferred(followup)
                case .ignored: .ignored
                case .deliverNow:
                    .deliverNow(
                        .finish([TestError(1)], wasExecuting: true, releasesCategories: false),
                        OperationStateMachineTableTests.observers(1))
                }
            }
        }

        /// A list of `count` observers, for the actions that hand observers out.
        static func observers(_ count: Int) -> ObserverList {
            var list = ObserverList()
            for _ in 0..<count { list.append(KeptObserver(BlockObserver(didStart: { _ in }))) }
            return list
        }

        @Test(arguments: [
            (Given.initialized, "initialized [finish]", FinishOutcome.deferred([])),
            (.pendingStarted, "pending(unasked) [start, finish]", .deferred([])),
            (.pendingAsking, "pending(askingAfterDependencies) [finish]", .deferred([])),
            (.evaluating, "ready [finish]", .deferred(.announceReady)),
            (.requesting, "ready [finish]", .deferred(.announceReady)),
            (.acquiring, "ready [finish]", .deferred([.releaseCategories, .announceReady])),
            (.ready, "ready [finish]", .deferred([])),
            (.executing, "finishing(executed)", .deliverNow),
            (.draining, "draining [start, finish]", .ignored),
            (.finishing, "finishing(executed)", .ignored),
            (.finished, "finished", .ignored),
        ])
        func S6_finish(given: Given, next: String, outcome: FinishOutcome) {
            var machine = Self.machine(given)
            #expect(machine.finish(errors: [TestError(1)]) == outcome.action)
            #expect(Self.describe(machine.phase) == next)
        }

        @Test(arguments: [
            (Given.initialized, "pending(unasked) [start]", Machine.StartAction.admit),
            (.pendingStarted, "pending(unasked) [start]", .misuse),
            (.pendingAsking, "pending(askingAfterDependencies) [start]", .admit),
            (.evaluating, "evaluating(1 unanswered) [start]", .wait),
            (.requesting, "acquiring [start]", .wait),
            (.acquiring, "acquiring [start]", .wait),
            (.ready, "executing(execute due)", .launched(.announceStart)),
            (.executing, "executing", .misuse),
            (.draining, "draining [start, finish]", .misuse),
            (.finishing, "finishing(executed)", .misuse),
            (.finished, "finished", .misuse),
        ])
        func S1S13_start(given: Given, next: String, action: Machine.StartAction) {
            var machine = Self.machine(given)
            #expect(machine.start() == action)
            #expect(Self.describe(machine.phase) == next)
        }

        @Test(arguments: [
            (Given.initialized, "ready", Answer.ready([])),
            (.pendingStarted, "ready [start]", .ready(.launchLater)),
            (.pendingAsking, "pending(askingAfterDependencies)", .notReady([])),
            (.evaluating, "evaluating(1 unanswered)", .notReady([])),
            (.requesting, "acquiring", .notReady([])),
            (.acquiring, "acquiring", .notReady([])),
            (.ready, "ready", .ready([])),
            (.executing, "executing", .ready([])),
            (.draining, "draining [start, finish]", .ready([])),
            (.finishing, "finishing(executed)", .ready([])),
            (.finished, "finished", .ready([])),
        ])
        func S2_anIsReadyQueryWithEveryDependencyFinished(
            given: Given, next: String, answer: Answer
        ) {
            var machine = Self.machine(given)
            #expect(
                machine.queryReadiness(dependenciesFinished: true, context: .query) == answer.action)
            #expect(Self.describe(machine.phase) == next)
        }

        @Test(arguments: [
            (Given.evaluating, "ready", Answer.ready(.announceReady)),
            (.requesting, "acquiring", .notReady([])),
            (.acquiring, "acquiring", .notReady([])),
            (.ready, "ready", .ready([])),
            (.executing, "executing", .ready([])),
            (.draining, "draining [start, finish]", .ready([])),
            (.finishing, "finishing(executed)", .ready([])),
            (.finished, "finished", .ready([])),
        ])
        func S2_aConditionAnswers(given: Given, next: String, answer: Answer) {
            var machine = Self.machine(given)
            #expect(machine.conditionEvaluated(at: 0, .satisfied).readiness == answer.action)
            #expect(Self.describe(machine.phase) == next)
        }

        @Test(arguments: [
            // Granted before the request returned: the requester reports it.
            (Given.requesting, "acquiring(granted)", Answer.notReady([])),
            (.acquiring, "ready", .ready(.announceReady)),
            (.ready, "ready", .ready(.releaseCategories)),
            (.executing, "executing", .ready(.releaseCategories)),
            (.draining, "draining [start, finish]", .ready(.releaseCategories)),
            (.finishing, "finishing(executed)", .ready(.releaseCategories)),
            (.finished, "finished", .ready(.releaseCategories)),
        ])
        func S7_categoriesAreGranted(given: Given, next: String, answer: Answer) {
            var machine = Self.machine(given)
            #expect(machine.categoriesGranted() == answer.action)
            #expect(Self.describe(machine.phase) == next)
        }

        @Test(arguments: [
            (Given.initialized, Machine.AddConditionAction.added),
            (.pendingStarted, .added),
            (.pendingAsking, .misuse),
            (.evaluating, .misuse),
            (.requesting, .misuse),
            (.acquiring, .misuse),
            (.ready, .misuse),
            (.executing, .misuse),
            (.draining, .misuse),
            (.finishing, .misuse),
            (.finished, .misuse),
        ])
        func S13_addCondition(given: Given, action: Machine.AddConditionAction) {
            var machine = Self.machine(given)
            #expect(machine.addCondition(BlockCondition { true }, categories: []) == action)
        }

        @Test(arguments: Given.allCases)
        func S13_aCancelledOperationIgnoresALateCondition(given: Given) {
            var machine = Self.machine(given)
            guard case .cancelled = machine.cancel(finishesWhenCancelled: false) else { return }
            // Cancelled, it is ready (S4): its conditions would never be asked.
            #expect(
                machine.addCondition(BlockCondition { true }, categories: []) == .ignored,
                "cancelled in \(given)")
        }

        @Test(arguments: [
            (Given.initialized, true), (.pendingStarted, true), (.pendingAsking, true), (.evaluating, true),
            (.requesting, true), (.acquiring, true), (.ready, true), (.executing, true), (.draining, true),
            (.finishing, false),
            (.finished, false),
        ])
        func S4_aCancelErrorIsRecordedUntilFinishingBegins(given: Given, isRecorded: Bool) {
            var machine = Self.machine(given)
            _ = machine.cancel(with: TestError(2), finishesWhenCancelled: true)
            #expect(ErrorsByValue.equal(machine.errors.suffix(1), [TestError(2)]) == isRecorded)
            #expect(machine.isCancelled == isRecorded)
        }

        /// An error offered when an override of `cancel()` did not call `super` on the thread of
        /// `cancel(with:)`: kept for the cancel to come (not an error yet), and dropped once
        /// finishing began.
        @Test(arguments: [
            (Given.initialized, true), (.pendingStarted, true), (.pendingAsking, true), (.evaluating, true),
            (.requesting, true), (.acquiring, true), (.ready, true), (.executing, true), (.draining, true),
            (.finishing, false),
            (.finished, false),
        ])
        func S4_anOfferedCancelErrorCountsOnceTheCancelTakesEffect(given: Given, isRecorded: Bool) {
            var machine = Self.machine(given)
            let before = machine.reportedErrors.count
            machine.offerCancelError(TestError(2))
            #expect(machine.reportedErrors.count == before, "not an error before the cancel")
            #expect(!machine.isCancelled)
            _ = machine.cancel(finishesWhenCancelled: true)
            #expect(ErrorsByValue.equal(machine.errors.suffix(1), [TestError(2)]) == isRecorded)
        }

        @Test(arguments: [
            (Given.initialized, Machine.Followup.deliver), (.pendingStarted, .deliver),
            (.pendingAsking, .deliver),
            (.evaluating, .deliver), (.requesting, .deliver), (.acquiring, .deliver), (.ready, .deliver),
            (.executing, .deliver),
            (.draining, .deliver), (.finishing, Machine.Followup.nothing),
            (.finished, Machine.Followup.nothing),
        ])
        func S10_aProducedOperationIsToldUntilFinishingBegins(given: Given, followup: Machine.Followup) {
            var machine = Self.machine(given)
            #expect(machine.produce(BlockOperation {}) == followup)
        }

        @Test(arguments: Given.allCases)
        func S10_aProducedOperationRunsOnTheQueueRunningItsProducerOnlyWhenProducedFromExecute(given: Given) {
            var machine = Self.machine(given)
            let elsewhere = ThreadIdentity(bitsOf: UInt(0xF00D))
            #expect(machine.placeProduced(on: elsewhere) == .addToLibraryQueue)
            guard given == .executing else { return }
            // `execute()` is called on this thread (the storage stamps it), then finishes there.
            let executing = ThreadIdentity(bitsOf: UInt(0x5EED))
            machine.stamp(thread: executing, now: .unstamped)
            #expect(machine.placeProduced(on: executing) == .addToCurrentQueue)
            _ = machine.finish(errors: [])
            #expect(machine.placeProduced(on: executing) == .addToCurrentQueue)
            #expect(machine.placeProduced(on: elsewhere) == .addToLibraryQueue)
        }

        @Test(arguments: Given.allCases)
        func S10_aCancelledOperationRunsWhatItProducesUntold(given: Given) {
            var machine = Self.machine(given)
            _ = machine.cancel(finishesWhenCancelled: false)
            _ = OperationStateMachineTests.drain(&machine)
            #expect(machine.produce(BlockOperation {}) == [])
        }

        @Test(arguments: Given.allCases)
        func S1_anObserverAddedOnceFinishedHearsTheEndAtOnce(given: Given) {
            var machine = Self.machine(given)
            let expected: Machine.AddObserverAction = given == .finished ? .tellFinished([]) : .added
            #expect(machine.addObserver(BlockObserver()) == expected)
            #expect(machine.addWaiter(.run({})) == (given == .finished ? .runNow : .registered))
        }

        @Test(arguments: [
            (Given.pendingStarted, "executing(execute due)", Machine.Followup.announceStart),
            (.executing, "executing", Machine.Followup.nothing),
            (.draining, "draining [start, finish]", Machine.Followup.nothing),
            (.finishing, "finishing(executed)", Machine.Followup.nothing),
            (.finished, "finished", Machine.Followup.nothing),
        ])
        func S4_aStartMadeBeforeReadyLaunchesOnceReadyUnlessSomethingElseDid(
            given: Given, next: String, followup: Machine.Followup
        ) {
            var machine = Self.machine(given)
            if given == .pendingStarted {
                // Ready from a callback's thread: the launch is left to another thread.
                #expect(
                    machine.queryReadiness(dependenciesFinished: true, context: .callback)
                        == .answer(true, .launchLater))
            }
            #expect(machine.launchDeferred() == followup)
            #expect(Self.describe(machine.phase) == next)
        }
    }
}
