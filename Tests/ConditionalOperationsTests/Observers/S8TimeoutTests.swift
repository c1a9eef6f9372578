import ConditionalOperations
import ConditionalOperationsTesting
import Foundation
import Testing

extension ConditionalOperationsTests {
    /// S8: a TimeoutObserver cancels an operation that has not finished in time, which then finishes.
    @Suite struct S8TimeoutTests {
        @Test func S8_anOperationThatNeverFinishesIsCancelledWithTimedOut() async {
            let operation = ProbeOperation(.never)
            operation.addObserver(TimeoutObserver(timeout: .seconds(0.05)))
            let observer = RecordingObserver()
            operation.addObserver(observer)
            let done = completionLatch([operation])
            OperationQueue().addOperation(operation)
            #expect(await done.wait())
            #expect(operation.isCancelled)
            #expect(operation.errors.first as? OperationError == .timedOut(0.05))
            #expect(observer.callbacks == ["didStart", "didCancel", "didFinish"])
        }

        /// S8 (added): a deadline already past times the operation out as it starts.
        @Test(arguments: [0, -0.5])
        func S8_aZeroOrNegativeTimeoutTimesOutAsItStarts(timeout: TimeInterval) async {
            let operation = ProbeOperation(.never)
            operation.addObserver(TimeoutObserver(timeout: .seconds(timeout)))
            let observer = RecordingObserver()
            operation.addObserver(observer)
            let done = completionLatch([operation])
            OperationQueue().addOperation(operation)
            #expect(await done.wait())
            #expect(operation.isCancelled)
            #expect(operation.errors.map { "\($0)" } == ["timed out after \(timeout) s"])
            #expect(observer.callbacks == ["didStart", "didCancel", "didFinish"])
        }

        @Test func S8_anOperationThatFinishesInTimeIsNotCancelled() async {
            let operation = ProbeOperation(.finishAtOnce)
            // A second: a thread descheduled between the start and the finish does not outlast it.
            operation.addObserver(TimeoutObserver(timeout: .seconds(1)))
            let done = completionLatch([operation])
            OperationQueue().addOperation(operation)
            #expect(await done.wait())
            // Wait past the deadline: a timer left running would cancel nothing, but must not crash.
            let pastDeadline = Latch()
            DispatchQueue.global().asyncAfter(deadline: .now() + 1.2) { pastDeadline.countDown() }
            #expect(await pastDeadline.wait())
            #expect(!operation.isCancelled)
            #expect(operation.errors.isEmpty)
        }

        @Test func S8_theTimerStartsAtDidStartNotAtEnqueue() async throws {
            let condition = ManualCondition()
            let operation = ProbeOperation(.finishAtOnce)
            operation.addCondition(condition)
            // A second, waited past before the operation may start: a timer started at the enqueue
            // would have fired, and one started at `didStart` is not outlasted by the run.
            operation.addObserver(TimeoutObserver(timeout: .seconds(1)))
            let done = completionLatch([operation])
            OperationQueue().addOperation(operation)
            try await condition.waitUntilEvaluated(timeout: .seconds(20))
            let pastDeadline = Latch()
            DispatchQueue.global().asyncAfter(deadline: .now() + 1.5) { pastDeadline.countDown() }
            #expect(await pastDeadline.wait())
            condition.answer(.satisfied)
            #expect(await done.wait())
            #expect(!operation.isCancelled)
            #expect(operation.executions.current == 1)
        }
    }
}
