import ConditionalOperationsTesting
import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests {
    /// S22: `queue.run(op)` runs an `AsyncOperation`'s `run()` with the caller's task-local values
    /// and priority; an operation started any other way runs as S15 says.
    @Suite struct S22TaskContextTests {
        @TaskLocal static var requestID: String?

        @Test(arguments: [false, true])
        func S22_runCarriesTheCallersTaskLocalValues(conditional: Bool) async throws {
            let queue = conditional ? ConditionalOperationQueue() : OperationQueue()
            let seen = try await Self.$requestID.withValue("request-42") {
                try await queue.run(AsyncOperation { Self.requestID })
            }
            #expect(seen == "request-42")
        }

        @Test func S22_runCarriesTheCallersPriority() async throws {
            // Awaiting a task may raise its priority, never lower it: a high caller is the test.
            let seen = try await Task(priority: .high) {
                try await OperationQueue().run(AsyncOperation { Task.currentPriority })
            }.value
            #expect(seen >= .high)
        }

        @Test func S22_anOperationStartedAnyOtherWayRunsWithoutTheCallersContext() async throws {
            let operation = AsyncOperation { Self.requestID }
            Self.$requestID.withValue("request-42") { OperationQueue().addOperation(operation) }
            #expect(try await operation.value == nil)
        }

        @Test func S22_anOperationThatDoesNotExecuteNeverRunsItsWorkAndRunReturns() async {
            let ran = Counter()
            let operation = AsyncOperation { ran.increment() }
            operation.addCondition(BlockCondition(name: "never") { false })
            let failed = await #expect(throws: OperationError.self) {
                try await Self.$requestID.withValue("x") { try await OperationQueue().run(operation) }
            }
            #expect(failed.map { "\($0)" } == "condition 'never' failed")
            #expect(ran.current == 0)
        }

        @Test func S22_cancellingTheCallerCancelsTheWorkRunInItsContext() async {
            let started = Latch()
            let cancelled = Latch()
            let operation = AsyncOperation { () async throws -> Int in
                started.countDown()
                // Stands for long work, until the task running it is cancelled.
                _ = await withTaskCancellationHandler {
                    await cancelled.wait(seconds: 60)
                } onCancel: {
                    cancelled.countDown()
                }
                throw CancellationError()
            }
            let caller = Task { try await OperationQueue().run(operation) }
            #expect(await started.wait())
            caller.cancel()
            let result = await caller.result
            #expect(throws: CancellationError.self) { try result.get() }
            #expect(operation.isCancelled && operation.isFinished)
        }

        @Test func S22_aCancelBeforeItExecutesEndsTheWaitingTask() async {
            let operation = AsyncOperation { 1 }
            let queue = OperationQueue()
            queue.isSuspended = true
            let caller = Task { try await queue.run(operation) }
            await waitUntil(seconds: 10) { operation.state >= .pending }
            operation.cancel()
            queue.isSuspended = false
            let result = await caller.result
            #expect(throws: CancellationError.self) { try result.get() }
        }
    }
}
