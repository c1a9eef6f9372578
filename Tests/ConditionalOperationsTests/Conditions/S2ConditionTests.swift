import ConditionalOperations
import ConditionalOperationsTesting
import Foundation
import Testing

extension ConditionalOperationsTests {
    /// S2: conditions run after every dependency finished, all at once; one failure stops execute().
    @Suite struct S2ConditionTests {
        @Test func S2_conditionsAreEvaluatedOnlyAfterEveryDependencyFinished() async {
            let dependency = ProbeOperation(.never)
            let evaluatedEarly = Counter()
            let operation = ProbeOperation()
            operation.addCondition(
                BlockCondition {
                    if !dependency.isFinished { evaluatedEarly.increment() }
                    return true
                })
            operation.addDependency(dependency)
            let queue = OperationQueue()
            let done = completionLatch([operation])
            queue.add([dependency, operation])
            #expect(await dependency.executing.wait())
            #expect(operation.state < .evaluatingConditions)
            dependency.finish()
            #expect(await done.wait())
            #expect(evaluatedEarly.current == 0)
            #expect(operation.executions.current == 1)
        }

        @Test func S2_allConditionsAreEvaluatedConcurrently() async throws {
            let first = ManualCondition()
            let second = ManualCondition()
            let operation = ProbeOperation()
            operation.addCondition(first)
            operation.addCondition(second)
            let done = completionLatch([operation])
            OperationQueue().addOperation(operation)
            // Both are asked before either answered.
            try await first.waitUntilEvaluated(timeout: .seconds(20))
            try await second.waitUntilEvaluated(timeout: .seconds(20))
            #expect(operation.state == .evaluatingConditions)
            second.answer(.satisfied)
            first.answer(.satisfied)
            #expect(await done.wait())
            #expect(operation.executions.current == 1)
        }

        @Test func S2_aFailedConditionFinishesWithoutExecutingWithEveryFailure() async {
            let operation = ProbeOperation()
            let observer = RecordingObserver()
            operation.addObserver(observer)
            operation.addCondition(BlockCondition(name: "never") { false })
            operation.addCondition(BlockCondition { throw TestError(3) })
            operation.addCondition(LaterCondition(.failed(TestError(4))))
            operation.addCondition(LaterCondition(.satisfied))
            let done = completionLatch([operation])
            OperationQueue().addOperation(operation)
            #expect(await done.wait())
            #expect(operation.executions.current == 0)
            #expect(operation.failed)
            #expect(operation.errors.count == 3)
            #expect(operation.errors.contains { ($0 as? OperationError) == .conditionFailed(name: "never") })
            #expect(operation.errors.contains { ($0 as? TestError) == TestError(3) })
            #expect(operation.errors.contains { ($0 as? TestError) == TestError(4) })
            #expect(!operation.isCancelled, "a failed condition is not a cancellation")
            #expect(observer.callbacks == ["didFinish"])
        }

        @Test func S2_aCompletionCalledTwiceIsCountedOnce() async {
            struct TwiceCondition: OperationCondition {
                func evaluate(
                    for operation: ConditionalOperation,
                    completion: @escaping @Sendable (OperationConditionResult) -> Void
                ) {
                    completion(.satisfied)
                    completion(.failed(TestError(9)))
                }
            }
            let operation = ProbeOperation()
            operation.addCondition(TwiceCondition())
            operation.addCondition(LaterCondition())
            let done = completionLatch([operation])
            OperationQueue().addOperation(operation)
            #expect(await done.wait())
            #expect(operation.errors.isEmpty)
            #expect(operation.executions.current == 1)
        }

        @Test func S2_negatedConditionInvertsItsBase() async {
            let passes = ProbeOperation()
            passes.addCondition(NegatedCondition(BlockCondition { false }))
            let fails = ProbeOperation()
            fails.addCondition(NegatedCondition(BlockCondition(name: "base") { true }))
            let done = completionLatch([passes, fails])
            OperationQueue().add([passes, fails])
            #expect(await done.wait())
            #expect(passes.executions.current == 1)
            #expect(fails.executions.current == 0)
            #expect(fails.errors.first as? OperationError == .conditionFailed(name: "Not<base>"))
        }

        @Test func S2_conditionsAreReleasedAfterEvaluation() async {
            final class Tracked: OperationCondition, Sendable {
                func evaluate(
                    for operation: ConditionalOperation,
                    completion: @escaping @Sendable (OperationConditionResult) -> Void
                ) { completion(.satisfied) }
            }
            let operation = ProbeOperation(.never)
            weak var weakCondition: Tracked?
            do {
                let condition = Tracked()
                weakCondition = condition
                operation.addCondition(condition)
            }
            let queue = OperationQueue()
            queue.addOperation(operation)
            #expect(await operation.executing.wait())
            #expect(weakCondition == nil, "released while the operation still executes")
            operation.finish()
        }
    }
}
