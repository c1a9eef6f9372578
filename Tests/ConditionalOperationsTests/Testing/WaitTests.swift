import ConditionalOperations
import ConditionalOperationsTesting
import Foundation
import Testing

extension ConditionalOperationsTests {
    /// ConditionalOperationsTesting's `waitUntilFinished(timeout:)` and `waitUntil(_:timeout:)`.
    @Suite struct TestingWaitTests {
        @Test func waitUntilFinishedReturnsAfterTheDidFinishObservers() async throws {
            let observed = Recorder()
            let operation = ProbeOperation(.finishLater)
            operation.addObserver(
                BlockObserver(didFinish: { _, _ in
                    Thread.sleep(forTimeInterval: 0.05)  // a slow observer the wait must outlast
                    observed.record("didFinish")
                }))
            OperationQueue().addOperation(operation)
            try await operation.untilFinished(timeout: .seconds(20))
            #expect(operation.isFinished)
            #expect(observed.all == ["didFinish"])
        }

        @Test func waitUntilFinishedReturnsAtOnceForAFinishedOperation() async throws {
            let operation = ProbeOperation()
            operation.start()
            try await operation.untilFinished(timeout: .seconds(0))
        }

        @Test func aWaitThatTimesOutSaysWhatTheOperationIsDoing() async throws {
            let operation = ProbeOperation(.never)
            operation.name = "stuck"
            operation.start()
            let outcome = await within { try await operation.untilFinished(timeout: .seconds(0.05)) }
            let error = try #require(
                outcome?.failure as? WaitTimeoutError, "it returns: the timer ended the wait")
            #expect(error.awaited == .finished)
            #expect(error.subject == "ProbeOperation 'stuck'")
            #expect(error.diagnosis?.state == .executing)
            #expect(
                error.description.hasPrefix(
                    "waited 0.05 s for ProbeOperation 'stuck' to finish; it is ProbeOperation 'stuck' (executing): executing for "
                ))
            operation.finish()
        }

        @Test func waitUntilAStateNamesTheUnansweredCondition() async throws {
            let condition = ManualCondition(name: "gate")
            let operation = ProbeOperation(.never)
            operation.addCondition(condition)
            OperationQueue().addOperation(operation)
            // Asking the condition: the wait that times out then finds it unanswered.
            try await condition.waitUntilEvaluated(timeout: .seconds(20))
            let outcome = await within { try await operation.waitUntil(.executing, timeout: .seconds(0.1)) }
            let error = try #require(outcome?.failure as? WaitTimeoutError)
            #expect(error.awaited == .state(.executing))
            guard case .conditions(let unanswered, _) = error.diagnosis?.reason else {
                Issue.record("diagnosis: \(String(describing: error.diagnosis))")
                return
            }
            #expect(unanswered == ["gate"])
            #expect(
                error.description.contains("to reach executing; it is ProbeOperation (evaluatingConditions)"))
            condition.answer(.satisfied)
            try await operation.waitUntil(.executing, timeout: .seconds(20))
            #expect(operation.state == .executing)
            operation.finish()
            try await operation.untilFinished(timeout: .seconds(20))
        }

        @Test func aStateAlreadyPassedReturnsAtOnce() async throws {
            let operation = ProbeOperation()
            operation.cancel()
            operation.start()
            try await operation.waitUntil(.executing, timeout: .seconds(0))
            #expect(operation.state == .finished, "a cancelled operation skips executing: check the state")
        }

        @Test func cancellingTheWaitingTaskEndsTheWaitAndNotTheOperation() async throws {
            let operation = ProbeOperation(.never)
            operation.start()
            let waiting = Task { try await operation.untilFinished(timeout: .seconds(600)) }
            waiting.cancel()
            let outcome = await within { try await waiting.value }
            #expect(outcome?.failure is CancellationError, "not the 600 s timer")
            #expect(!operation.isCancelled)
            operation.finish()
        }

        @Test func manyWaitersThatTimeOutLeaveTheOperationUntouched() async throws {
            let operation = ProbeOperation(.never)
            operation.start()
            let timedOut = await within {
                await withTaskGroup(of: Bool.self) { group in
                    for _ in 0..<100 {
                        group.addTask {
                            do {
                                try await operation.waitUntil(.finishing, timeout: .seconds(0.01))
                                return false
                            } catch {
                                return error is WaitTimeoutError
                            }
                        }
                    }
                    return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
                }
            }
            #expect(try timedOut?.get() == 100, "every waiter timed out, and each returned")
            #expect(operation.state == .executing)
            operation.finish()
            try await operation.untilFinished(timeout: .seconds(20))
        }
    }
}
