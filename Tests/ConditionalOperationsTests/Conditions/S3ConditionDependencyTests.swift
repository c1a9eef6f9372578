import ConditionalOperations
import Foundation
import Testing

extension ConditionalOperationsTests {
    /// S3: a condition's dependency runs before the condition is evaluated, also on a plain queue.
    @Suite struct S3ConditionDependencyTests {
        /// Needs its dependency to have run; counts how often it was asked for one.
        final class NeedsSetup: OperationCondition, Sendable {
            let asked = Counter()
            let setup = BlockOperation {}

            func dependency(for operation: ConditionalOperation) -> Foundation.Operation? {
                asked.increment()
                return setup
            }

            func evaluate(
                for operation: ConditionalOperation,
                completion: @escaping @Sendable (OperationConditionResult) -> Void
            ) {
                completion(setup.isFinished ? .satisfied : .failed(TestError(99)))
            }
        }

        @Test func S3_onAPlainQueueTheConditionDependencyIsRunByTheLibrary() async {
            let condition = NeedsSetup()
            let operation = ProbeOperation()
            operation.addCondition(condition)
            let done = completionLatch([operation])
            OperationQueue().addOperation(operation)
            #expect(await done.wait())
            #expect(condition.setup.isFinished)
            #expect(operation.executions.current == 1)
            #expect(operation.errors.isEmpty)
            #expect(condition.asked.current == 1, "asked once")
            #expect(operation.dependencies.contains(condition.setup))
        }

        @Test func S3_aManualStartRunsTheConditionDependencyToo() async {
            let condition = NeedsSetup()
            let operation = ProbeOperation()
            operation.addCondition(condition)
            operation.start()
            await operation.untilFinished()
            #expect(operation.executions.current == 1)
            #expect(condition.asked.current == 1)
        }

        @Test func S3_silentConditionSuppressesTheDependency() async {
            let condition = NeedsSetup()
            let operation = ProbeOperation()
            operation.addCondition(SilentCondition(condition))
            let done = completionLatch([operation])
            OperationQueue().addOperation(operation)
            #expect(await done.wait())
            #expect(condition.asked.current == 0)
            #expect(operation.executions.current == 0, "the setup never ran, so the condition failed")
            #expect(operation.errors.first as? TestError == TestError(99))
        }

        @Test func S3_negatedConditionKeepsItsBaseDependency() async {
            let condition = NeedsSetup()
            let operation = ProbeOperation()
            operation.addCondition(NegatedCondition(condition))
            let done = completionLatch([operation])
            OperationQueue().addOperation(operation)
            #expect(await done.wait())
            #expect(condition.asked.current == 1)
            #expect(operation.executions.current == 0, "the base is satisfied, so the negation fails")
        }
    }
}
