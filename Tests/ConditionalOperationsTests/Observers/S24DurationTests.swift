import ConditionalOperations
import ConditionalOperationsTesting
import Foundation
import Testing

extension ConditionalOperationsTests {
    /// S24: every interval parameter takes a `Duration` as well as a `TimeInterval`.
    @Suite struct S24DurationTests {
        @Test func S24_aTimeoutObserverTakesADuration() async {
            let operation = ProbeOperation(.never)
            operation.addObserver(TimeoutObserver(timeout: .milliseconds(50)))
            let done = completionLatch([operation])
            OperationQueue().addOperation(operation)
            #expect(await done.wait())
            #expect(operation.isCancelled)
            #expect(operation.errors.first as? OperationError == .timedOut(0.05))
        }

        /// S8 (added), with a `Duration`: a timeout already past times the operation out as it starts.
        @Test(arguments: [Duration.zero, .milliseconds(-500)])
        func S24_S8_aZeroOrNegativeDurationTimesOutAsItStarts(timeout: Duration) async {
            let operation = ProbeOperation(.never)
            operation.addObserver(TimeoutObserver(timeout: timeout))
            let observer = RecordingObserver()
            operation.addObserver(observer)
            let done = completionLatch([operation])
            OperationQueue().addOperation(operation)
            #expect(await done.wait())
            #expect(operation.isCancelled)
            let seconds = timeout == .zero ? "0.0" : "-0.5"
            #expect(operation.errors.map { "\($0)" } == ["timed out after \(seconds) s"])
            #expect(observer.callbacks == ["didStart", "didCancel", "didFinish"])
        }

        @Test func S24_aDeadlineTakesADuration() async {
            let operation = ProbeOperation()
            operation.addCondition(ManualCondition())
            operation.addDeadline(after: .milliseconds(50))
            let done = completionLatch([operation])
            ConditionalOperationQueue().addOperation(operation)
            #expect(await done.wait())
            #expect(operation.errors.first as? OperationError == .timedOut(0.05))
            #expect(operation.executions.current == 0)
        }

        @Test(arguments: [Duration.zero, .seconds(-2)])
        func S24_S8_aDeadlineOfZeroOrLessIsAlreadyPast(interval: Duration) async {
            let operation = ProbeOperation(.never)
            operation.addDeadline(after: interval)
            let done = completionLatch([operation])
            OperationQueue().addOperation(operation)
            #expect(await done.wait())
            #expect(operation.isCancelled)
            #expect(operation.errors.first as? OperationError == .timedOut(interval == .zero ? 0 : -2))
        }

        @Test func S24_aDelayOperationTakesADuration() async {
            let delay = DelayOperation(interval: .milliseconds(150))
            let started = Date()
            let done = completionLatch([delay])
            OperationQueue().addOperation(delay)
            #expect(await done.wait())
            #expect(Date().timeIntervalSince(started) >= 0.15)

            let atOnce = [DelayOperation(interval: .zero), DelayOperation(interval: .seconds(-1))]
            let finished = completionLatch(atOnce)
            OperationQueue().add(atOnce)
            #expect(await finished.wait(seconds: 5))
        }

        @Test func S24_backOffsTakeDurations() {
            #expect(RetryBackoff.constant(.milliseconds(1500)).delay(afterAttempt: 4, errors: []) == 1.5)
            let exact = RetryBackoff.exponential(
                initial: .milliseconds(500), multiplier: 2, maximum: .seconds(3), jitter: 0)
            #expect((1...5).map { exact.delay(afterAttempt: $0, errors: []) } == [0.5, 1, 2, 3, 3])
            let defaults = RetryBackoff.exponential(initial: .seconds(1), jitter: 0)
            #expect(defaults.delay(afterAttempt: 3, errors: []) == 4, "multiplier 2 by default")
            #expect(defaults.delay(afterAttempt: 20, errors: []) == 60, "at most 60 s by default")
            let jittered = RetryBackoff.exponential(initial: .seconds(1), multiplier: 3)
            let waits = (0..<500).compactMap { _ in jittered.delay(afterAttempt: 3, errors: []) }
            #expect(waits.allSatisfy { (4.5...9).contains($0) }, "jitter 0.5 by default")
        }

        @Test func S24_aRepeatOperationWaitsADurationBetweenIterations() async throws {
            let repeating = RepeatOperation<Int>(maximumCount: 2, interval: .constant(.milliseconds(150))) {
                number in ClosureOperation<Int> { $0.finish(returning: number) }
            }
            let started = Date()
            #expect(try await within { try await OperationQueue().run(repeating) }?.get() == 2)
            #expect(Date().timeIntervalSince(started) >= 0.15)
        }

        @Test func S24_theTestingWaitsTakeDurations() async throws {
            let operation = ProbeOperation(.finishLater)
            let condition = ManualCondition()
            operation.addCondition(condition)
            OperationQueue().addOperation(operation)
            try await condition.waitUntilEvaluated(timeout: .seconds(20))
            condition.answer(.satisfied)
            try await operation.waitUntil(.executing, timeout: .seconds(20))
            try await operation.untilFinished(timeout: .seconds(20))
            #expect(operation.isFinished)

            let stuck = ProbeOperation(.never)
            OperationQueue().addOperation(stuck)
            await #expect(throws: WaitTimeoutError.self) {
                try await stuck.untilFinished(timeout: .milliseconds(50))
            }
            stuck.cancel()
        }
    }
}
