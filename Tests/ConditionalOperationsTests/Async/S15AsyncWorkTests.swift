import ConditionalOperationsTesting
import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests {
    /// S15: `AsyncOperation` runs `run()` in a task the operation cancels and finishes when it
    /// ends; `AsyncCondition` evaluates in a task the operation's cancel cancels.
    @Suite struct S15AsyncWorkTests {
        @Test func S15_theWorksValueFinishesTheOperation() async throws {
            let operation = AsyncOperation(name: "double") { 21 * 2 }
            OperationQueue().addOperation(operation)
            #expect(try await within { try await operation.value }?.get() == 42)
            #expect(operation.name == "double")
            #expect(operation.errors.isEmpty)
        }

        @Test func S15_aThrownErrorFailsTheOperation() async throws {
            let operation = AsyncOperation<Int> { throw TestError(5) }
            OperationQueue().addOperation(operation)
            try await operation.untilFinished(timeout: .seconds(10))
            #expect(operation.failed)
            #expect(operation.errors.map { $0 as? TestError } == [TestError(5)])
        }

        /// The work runs with the operation's priority, and `finishesWhenCancelled` is `false`.
        @Test func S15_cancellingTheOperationCancelsTheTaskAndItFinishesOnceRunEnded() async throws {
            let started = Latch()
            let ended = Recorder()
            let operation = AsyncOperation<Void> {
                started.countDown()
                await untilCancelled()
                ended.record("run ended")
            }
            let finishedAfterRun = Recorder()
            operation.addObserver(
                BlockObserver(didFinish: { _, _ in finishedAfterRun.record("\(ended.all)") }))
            OperationQueue().addOperation(operation)
            #expect(await started.wait())
            #expect(!operation.finishesWhenCancelled)
            operation.cancel(with: TestError(6))
            try await operation.untilFinished(timeout: .seconds(10))
            #expect(finishedAfterRun.all == ["[\"run ended\"]"], "finished only once run() returned")
            #expect(operation.errors.map { $0 as? TestError } == [TestError(6)])
        }

        @Test func S15_aCancellationErrorThrownAfterTheCancelAddsNoErrorOfItsOwn() async throws {
            let started = Latch()
            let operation = AsyncOperation<Void> {
                started.countDown()
                await untilCancelled()
                try Task.checkCancellation()
            }
            OperationQueue().addOperation(operation)
            #expect(await started.wait())
            operation.cancel()
            try await operation.untilFinished(timeout: .seconds(10))
            #expect(operation.isCancelled)
            #expect(operation.errors.isEmpty)
            #expect(throws: CancellationError.self) { try operation.result?.get() }
        }

        @Test func S15_anOperationCancelledBeforeItExecutesNeverRunsItsWork() async throws {
            let ran = Recorder()
            let operation = AsyncOperation<Void> { ran.record("ran") }
            operation.cancel()
            OperationQueue().addOperation(operation)
            try await operation.untilFinished(timeout: .seconds(10))
            #expect(ran.all.isEmpty)
        }

        final class Countdown: AsyncOperation<[Int]>, @unchecked Sendable {
            let from: Int
            init(from: Int) {
                self.from = from
                super.init()
            }
            override func run() async throws -> [Int] { Array((1...from).reversed()) }
        }

        @Test func S15_aSubclassOverridesRun() async throws {
            let result = await within { try await OperationQueue().run(Countdown(from: 3)) }
            #expect(try result?.get() == [3, 2, 1])
        }

        @Test(arguments: [(true, "satisfied"), (false, "conditionFailed")])
        func S15_anAsyncConditionAwaitsItsTest(holds: Bool, outcome: String) async throws {
            let operation = ProbeOperation()
            operation.addCondition(
                AsyncCondition(name: "awaited") {
                    await Task.yield()
                    return holds
                })
            OperationQueue().addOperation(operation)
            try await operation.untilFinished(timeout: .seconds(10))
            #expect(operation.executions.current == (holds ? 1 : 0))
            let errors = operation.errors.compactMap { $0 as? OperationError }
            #expect(errors == (holds ? [] : [.conditionFailed(name: "awaited")]), "\(outcome)")
        }

        @Test func S15_anAsyncConditionThatThrowsFailsWithItsError() async throws {
            let operation = ProbeOperation()
            operation.addCondition(AsyncCondition { throw TestError(7) })
            OperationQueue().addOperation(operation)
            try await operation.untilFinished(timeout: .seconds(10))
            #expect(operation.executions.current == 0)
            #expect(operation.errors.map { $0 as? TestError } == [TestError(7)])
        }

        @Test func S15_anAsyncConditionThatNeverAnswersIsCancelledWithItsOperation() async throws {
            let evaluating = Latch()
            let testCancelled = Latch()
            let operation = ProbeOperation()
            operation.addCondition(
                AsyncCondition {
                    evaluating.countDown()
                    await untilCancelled()
                    testCancelled.countDown()
                    return true  // a late answer: ignored
                })
            OperationQueue().addOperation(operation)
            #expect(await evaluating.wait())
            operation.cancel()
            #expect(await testCancelled.wait(), "the test's task was cancelled")
            try await operation.untilFinished(timeout: .seconds(10))
            #expect(operation.executions.current == 0)
        }
    }
}
