import ConditionalOperationsTesting
import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests {
    /// S18: `AllOf`, `AnyOf`, `&&`, `||`, `!`, nesting.
    @Suite struct S18CombinatorTests {
        typealias NeedsSetup = S3ConditionDependencyTests.NeedsSetup

        static func pass(_ name: String) -> BlockCondition { BlockCondition(name: name) { true } }
        static func fail(_ name: String) -> BlockCondition { BlockCondition(name: name) { false } }
        static func skip(_ name: String) -> SkippingCondition<BlockCondition> {
            SkippingCondition(fail(name))
        }

        /// Runs a probe with `condition` and returns it finished.
        static func run(_ condition: some OperationCondition, on queue: OperationQueue = OperationQueue())
            async
            -> ProbeOperation
        {
            let operation = ProbeOperation()
            operation.addCondition(condition)
            let done = completionLatch([operation])
            queue.addOperation(operation)
            #expect(await done.wait())
            return operation
        }

        static func messages(_ operation: ConditionalOperation) -> [String] {
            operation.errors.map { "\($0)" }
        }

        @Test func S18_allOfIsSatisfiedWhenEveryMemberIs() async {
            let operation = await Self.run(AllOf([Self.pass("a"), Self.pass("b")]))
            #expect(operation.executions.current == 1 && operation.errors.isEmpty)
        }

        @Test func S18_allOfFailsWithEachFailedMembersErrorAsAnErrorOfItsOwn() async {
            let operation = await Self.run(AllOf([Self.fail("a"), Self.pass("b"), Self.fail("c")]))
            #expect(operation.executions.current == 0 && operation.failed)
            #expect(Self.messages(operation) == ["condition 'a' failed", "condition 'c' failed"])
        }

        @Test func S18_allOfEvaluatesItsMembersConcurrently() async throws {
            let first = ManualCondition(name: "first")
            let second = ManualCondition(name: "second")
            let operation = ProbeOperation()
            operation.addCondition(first && second)
            let done = completionLatch([operation])
            OperationQueue().addOperation(operation)
            try await first.waitUntilEvaluated(timeout: .seconds(20))
            try await second.waitUntilEvaluated(timeout: .seconds(20))  // asked before the first answered
            first.answer(.satisfied)
            second.answer(.satisfied)
            #expect(await done.wait())
            #expect(operation.executions.current == 1)
        }

        @Test func S18_allOfWithNoFailureAndASkipSkips() async {
            let operation = await Self.run(Self.pass("a") && Self.skip("b"))
            #expect(operation.isSkipped && operation.errors.isEmpty)
        }

        @Test func S18_anyOfIsSatisfiedAtTheFirstSatisfiedMemberAndIgnoresLateAnswers() async {
            let never = ManualCondition(name: "never")
            let operation = await Self.run(never || Self.pass("b"))
            #expect(operation.executions.current == 1 && operation.errors.isEmpty)
            never.answer(.failed(TestError(1)))  // late: ignored
            #expect(operation.errors.isEmpty)
        }

        @Test func S18_anyOfCancelsTheOthersAsyncWork() async {
            let cancelled = Latch()
            let slow = AsyncCondition(name: "slow") {
                _ = await withTaskCancellationHandler {
                    await cancelled.wait(seconds: 30)  // stands for slow work, until cancelled
                } onCancel: {
                    cancelled.countDown()
                }
                return false
            }
            let started = Latch()
            let gate = AsyncCondition(name: "gate") {
                started.countDown()
                return true
            }
            let operation = await Self.run(slow || gate)
            #expect(await started.wait())
            #expect(operation.executions.current == 1)
            #expect(await cancelled.wait(seconds: 10), "the slow member's task was cancelled")
        }

        @Test func S18_anyOfFailsWhenNoneIsSatisfiedAndAnyFailed() async {
            let operation = await Self.run(AnyOf([Self.fail("a"), Self.skip("b"), Self.fail("c")]))
            #expect(operation.executions.current == 0)
            #expect(Self.messages(operation) == ["condition 'a' failed", "condition 'c' failed"])
        }

        @Test func S18_anyOfSkipsWhenEveryMemberSkipped() async {
            let operation = await Self.run(Self.skip("a") || Self.skip("b"))
            #expect(operation.isSkipped && operation.errors.isEmpty)
        }

        @Test func S18_nestedCombinatorsFlattenTheirFailures() async {
            let condition = Self.fail("a") && (Self.fail("b") || Self.fail("c")) && !Self.pass("d")
            let operation = await Self.run(condition)
            #expect(
                Self.messages(operation) == [
                    "condition 'a' failed", "condition 'b' failed", "condition 'c' failed",
                    "condition 'Not<d>' failed",
                ])
        }

        @Test func S18_combinatorsTakeEveryMembersDependencies() async {
            for queue in [OperationQueue(), ConditionalOperationQueue()] {
                let first = NeedsSetup()
                let second = NeedsSetup()
                let operation = await Self.run(AnyOf([first, second]), on: queue)
                #expect(first.setup.isFinished && second.setup.isFinished)
                #expect(
                    operation.dependencies.contains(first.setup)
                        && operation.dependencies.contains(second.setup))
                #expect(operation.executions.current == 1)
            }
        }

        @Test func S18_combinatorsTakeTheUnionOfTheirMembersCategories() {
            let condition = MutuallyExclusive(category: "S18.a") && MutuallyExclusive(category: "S18.b")
            #expect(condition.mutuallyExclusiveCategories == ["S18.a", "S18.b"])
            #expect(
                (Self.pass("x") || MutuallyExclusive(category: "S18.c")).mutuallyExclusiveCategories == [
                    "S18.c"
                ])
        }

        @Test func S18_theOperatorsBuildTheCombinators() {
            let all = Self.pass("a") && Self.pass("b") && Self.pass("c")
            #expect(all.conditions.count == 3 && all.name == "AllOf<a, b, c>")
            let any = Self.pass("a") || Self.pass("b")
            #expect(any.name == "AnyOf<a, b>")
            #expect((!Self.pass("a")).name == "Not<a>")
        }

        @Test func S18_aMemberThatAnswersTwiceIsCountedOnce() async {
            struct Twice: OperationCondition {
                func evaluate(
                    for operation: ConditionalOperation,
                    completion: @escaping @Sendable (OperationConditionResult) -> Void
                ) {
                    completion(.failed(TestError(1)))
                    completion(.failed(TestError(2)))
                }
            }
            let operation = await Self.run(AllOf([Twice(), Self.pass("b")]))
            #expect(testErrorIDs(operation.errors) == [1])
        }

        /// A condition object that counts how often it is evaluated, and fails.
        final class CountedFailure: OperationCondition, Sendable {
            let evaluations = Counter()

            func evaluate(
                for operation: ConditionalOperation,
                completion: @escaping @Sendable (OperationConditionResult) -> Void
            ) {
                completion(.failed(TestError(evaluations.increment())))
            }
        }

        @Test func S13_theSameConditionObjectGivenTwiceToAllOfIsEvaluatedOnce() async {
            let condition = CountedFailure()
            let operation = await Self.run(AllOf([condition, Self.pass("b"), condition]))
            #expect(condition.evaluations.current == 1)
            #expect(testErrorIDs(operation.errors) == [1], "one failure, not one per mention")
            #expect((condition && Self.pass("b") && condition).name == "AllOf<CountedFailure, b>")
        }

        @Test func S13_theSameConditionObjectGivenTwiceToAnyOfIsEvaluatedOnce() async {
            let condition = CountedFailure()
            let operation = await Self.run(condition || condition)
            #expect(condition.evaluations.current == 1)
            #expect(testErrorIDs(operation.errors) == [1])
        }

        @Test func S13_aConditionObjectGivenTwiceAddsItsDependencyOnce() async {
            for queue in [OperationQueue(), ConditionalOperationQueue()] {
                let condition = NeedsSetup()
                let operation = await Self.run(AllOf([condition, condition]), on: queue)
                #expect(condition.asked.current == 1)
                #expect(operation.dependencies.count == 1)
                #expect(operation.executions.current == 1)
            }
        }

        @Test func S18_equalValueConditionsAreStillEachEvaluated() async {
            let operation = await Self.run(AllOf([Self.fail("a"), Self.fail("a")]))
            #expect(Self.messages(operation) == ["condition 'a' failed", "condition 'a' failed"])
        }
    }
}
