import ConditionalOperations
import ConditionalOperationsTesting
import Foundation
import Testing

extension ConditionalOperationsTests {
    /// ConditionalOperationsTesting's `ManualCondition`: asked, awaited and answered by the test.
    @Suite struct TestingManualConditionTests {
        @Test func itHoldsTheOperationUntilAnswered() async throws {
            let condition = ManualCondition(name: "gate")
            let operation = ProbeOperation()
            operation.addCondition(condition)
            OperationQueue().addOperation(operation)
            try await condition.waitUntilEvaluated(timeout: .seconds(20))
            #expect(operation.state == .evaluatingConditions)
            #expect(condition.evaluationCount == 1)
            #expect(operation.diagnosis.description.contains("not answered: gate"))
            condition.answer(.satisfied)
            try await operation.untilFinished(timeout: .seconds(20))
            #expect(operation.executions.current == 1)
            #expect(operation.errors.isEmpty)
        }

        @Test func anAnswerGivenBeforeItIsAskedIsKept() async throws {
            let condition = ManualCondition()
            condition.answer(.failed(TestError(1)))
            let operation = ProbeOperation()
            operation.addCondition(condition)
            operation.start()
            try await operation.untilFinished(timeout: .seconds(20))
            #expect(operation.executions.current == 0)
            #expect(operation.errors as? [TestError] == [TestError(1)])
        }

        @Test func eachEvaluationIsAnsweredOnceAndLaterOnesGetTheLatestAnswer() {
            let condition = ManualCondition()
            let operation = ProbeOperation()
            let answers = Recorder()
            let completion: @Sendable (OperationConditionResult) -> Void = { result in
                if case .failed(let error) = result {
                    answers.record("failed \(error)")
                } else {
                    answers.record("satisfied")
                }
            }
            condition.evaluate(for: operation, completion: completion)
            condition.evaluate(for: operation, completion: completion)
            #expect(answers.all.isEmpty)
            condition.answer(.satisfied)
            #expect(answers.all == ["satisfied", "satisfied"])
            condition.answer(.failed(TestError(2)))
            #expect(
                answers.all == ["satisfied", "satisfied"], "an answered evaluation is not answered again")
            condition.evaluate(for: operation, completion: completion)
            #expect(answers.all == ["satisfied", "satisfied", "failed TestError(id: 2)"])
            #expect(condition.evaluationCount == 3)
        }

        @Test func evaluatedReturnsAtOnceWhenItWasAskedAlready() async throws {
            let condition = ManualCondition()
            condition.evaluate(for: ProbeOperation()) { _ in }
            let returned = await within(seconds: 10) {
                try await condition.waitUntilEvaluated(timeout: .seconds(600))
            }
            #expect(returned != nil)
        }

        @Test func aConditionNobodyAsksTimesOutSayingWhereToLook() async throws {
            let condition = ManualCondition(name: "never asked")
            let outcome = await within { try await condition.waitUntilEvaluated(timeout: .seconds(0.05)) }
            let error = try #require(outcome?.failure)
            let timeout = try #require(error as? WaitTimeoutError)
            #expect(timeout.awaited == .evaluation)
            #expect(timeout.subject == "never asked")
            #expect(timeout.timeout == 0.05)
            #expect(timeout.diagnosis == nil)
            #expect(timeout.description.hasPrefix("waited 0.05 s for never asked to be asked to evaluate: "))
        }

        @Test func cancellingTheWaitingTaskEndsTheWaitAtOnce() async throws {
            let condition = ManualCondition()
            let waiting = Task { try await condition.waitUntilEvaluated(timeout: .seconds(600)) }
            waiting.cancel()
            let outcome = await within { try await waiting.value }
            #expect(outcome?.failure is CancellationError, "not the 600 s timer")
        }

        @Test func answersAndEvaluationsFromManyThreadsAnswerEveryOperationOnce() async throws {
            let condition = ManualCondition()
            let operations = (0..<200).map { _ in
                let operation = ProbeOperation()
                operation.addCondition(condition)
                return operation
            }
            let queue = OperationQueue()
            queue.add(operations)
            DispatchQueue.concurrentPerform(iterations: 4) { _ in condition.answer(.satisfied) }
            for operation in operations { try await operation.untilFinished(timeout: .seconds(20)) }
            #expect(operations.allSatisfy { $0.executions.current == 1 && $0.errors.isEmpty })
            #expect(condition.evaluationCount == 200)
        }
    }
}
