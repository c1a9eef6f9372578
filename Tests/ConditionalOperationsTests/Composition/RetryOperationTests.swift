import ConditionalOperationsTesting
import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests.CompositionTests {
    /// `RetryOperation`: fresh attempts while they fail, up to a limit, with a back-off; stops at
    /// cancel; finishes with the last attempt's outcome; observers see one operation.
    @Suite struct RetryOperationTests {
        /// Attempts that fail with `TestError(n)` for attempt n until `succeedingAt`, then return n.
        static func attempts(succeedingAt success: Int?, made: Counter = Counter())
            -> @Sendable (Int) -> ResultOperation<Int>
        {
            { attempt in
                made.increment()
                return ValueOperation<Int>(
                    attempt == success ? .success(attempt) : .failure(TestError(attempt)))
            }
        }

        @Test func retriesUntilAnAttemptSucceedsAndFinishesWithItsValue() async throws {
            let retry = RetryOperation(maximumAttempts: 5, makeAttempt: Self.attempts(succeedingAt: 3))
            let observer = RecordingObserver()
            retry.addObserver(observer)
            OperationQueue().addOperation(retry)
            await retry.untilFinished()
            #expect(try retry.result?.get() == 3)
            #expect(retry.errors.isEmpty, "the failed attempts' errors are not the retry's")
            #expect(retry.attemptCount == 3)
            #expect(observer.callbacks == ["didStart", "didFinish"], "observers see one operation (S1)")
        }

        @Test func stopsAtTheLimitWithTheLastAttemptsErrors() async {
            let made = Counter()
            let retry = RetryOperation(
                maximumAttempts: 3, makeAttempt: Self.attempts(succeedingAt: nil, made: made))
            ConditionalOperationQueue().addOperation(retry)
            await retry.untilFinished()
            #expect(testErrorIDs(retry.errors) == [3])
            #expect(made.current == 3)
            #expect(throws: TestError(3)) { try retry.result?.get() }
        }

        @Test func shouldRetryAndACustomBackOffCanStopEarly() async {
            let byPredicate = RetryOperation(
                maximumAttempts: 5, shouldRetry: { errors in testErrorIDs(errors) != [2] },
                makeAttempt: Self.attempts(succeedingAt: nil))
            let byBackOff = RetryOperation(
                maximumAttempts: 5, backoff: .custom { attempt, _ in attempt < 3 ? 0 : nil },
                makeAttempt: Self.attempts(succeedingAt: nil))
            OperationQueue().add([byPredicate, byBackOff])
            await byPredicate.untilFinished()
            await byBackOff.untilFinished()
            #expect(byPredicate.attemptCount == 2)
            #expect(testErrorIDs(byPredicate.errors) == [2])
            #expect(byBackOff.attemptCount == 3)
        }

        @Test func waitsTheBackOffBetweenAttempts() async {
            let retry = RetryOperation(
                maximumAttempts: 3, backoff: .constant(.seconds(0.1)),
                makeAttempt: Self.attempts(succeedingAt: 3))
            let started = Date()
            OperationQueue().addOperation(retry)
            await retry.untilFinished()
            let elapsed = Date().timeIntervalSince(started)
            #expect(elapsed >= 0.2)
            #expect(elapsed < 10)
            #expect(retry.attemptCount == 3)
        }

        @Test func cancellingWhileBackingOffFinishesAtOnce() async {
            let firstFailed = Latch()
            let retry = RetryOperation(maximumAttempts: 5, backoff: .constant(.seconds(60))) { attempt in
                let operation = ValueOperation<Int>(.failure(TestError(attempt)))
                operation.addObserver(BlockObserver(didFinish: { _, _ in firstFailed.countDown() }))
                return operation
            }
            let done = completionLatch([retry])
            OperationQueue().addOperation(retry)
            #expect(await firstFailed.wait())
            retry.cancel(with: TestError(100))
            #expect(await done.wait(seconds: 10), "it did not wait out the back-off")
            #expect(retry.attemptCount == 1)
            #expect(testErrorIDs(retry.errors) == [1, 100])
            #expect(retry.isCancelled)
        }

        @Test func S5_cancellingCancelsTheRunningAttemptAndFinishesOnceItDid() async {
            let attempt = ProbeOperation(.never, finishesWhenCancelled: false)
            let retry = RetryOperation<Void>(maximumAttempts: 5) { _ in attempt }
            let observer = RecordingObserver()
            retry.addObserver(observer)
            OperationQueue().addOperation(retry)
            #expect(await attempt.executing.wait())
            retry.cancel()
            #expect(attempt.isCancelled)
            #expect(retry.state == .executing, "it waits for its attempt")
            attempt.finish(error: TestError(1))
            await retry.untilFinished()
            #expect(retry.attemptCount == 1)
            #expect(testErrorIDs(retry.errors) == [1])
            #expect(observer.callbacks == ["didStart", "didCancel", "didFinish"])
        }

        /// A `ResultOperation` whose `execute()` never finishes (the default one would).
        final class Stuck: ResultOperation<Int>, @unchecked Sendable {  // no stored state
            override func execute() {}
        }

        @Test func aTimedOutAttemptIsRetried() async throws {
            let retry = RetryOperation(maximumAttempts: 3) { attempt -> ResultOperation<Int> in
                guard attempt > 1 else {
                    let stuck = Stuck()
                    stuck.addObserver(TimeoutObserver(timeout: .seconds(0.05)))
                    return stuck
                }
                return ValueOperation<Int>(.success(attempt))
            }
            OperationQueue().addOperation(retry)
            await retry.untilFinished()
            #expect(try retry.result?.get() == 2)
            #expect(retry.attemptCount == 2)
        }

        @Test func anyOperationCanBeRetriedAsRetryOperationOfVoid() async throws {
            let retry = RetryOperation<Void>(maximumAttempts: 3) { attempt in
                ProbeOperation(attempt < 2 ? .finishWith([TestError(attempt)]) : .finishAtOnce)
            }
            OperationQueue().addOperation(retry)
            await retry.untilFinished()
            #expect(retry.attemptCount == 2)
            #expect(retry.errors.isEmpty)
            #expect(throws: Never.self) { try retry.result?.get() }
        }

        @Test func aConsumerCanInjectFromARetry() async {
            let retry = RetryOperation(maximumAttempts: 3, makeAttempt: Self.attempts(succeedingAt: 2))
            let received = Box<Int?>(nil)
            let consumer = ProbeOperation()
            consumer.inject(from: retry) { _, value in received.value = value }
            OperationQueue().add([retry, consumer])
            await consumer.untilFinished()
            #expect(received.value == 2)
        }

        @Test func S7_anAttemptMayNeedTheCategoryItsRetryHolds() async {
            let category = "S7.retry"
            let retry = RetryOperation(maximumAttempts: 2) { attempt -> ResultOperation<Int> in
                let operation = ValueOperation<Int>(
                    attempt == 2 ? .success(attempt) : .failure(TestError(attempt)))
                operation.addCondition(MutuallyExclusive(category: category))
                return operation
            }
            retry.addCondition(MutuallyExclusive(category: category))
            let done = completionLatch([retry])
            OperationQueue().addOperation(retry)
            #expect(await done.wait())
            #expect(retry.attemptCount == 2)
            #expect(ExclusivityController.shared.requestCount(for: category) == 0)
        }

        @Test func S12_aFinishedRetryHoldsNoAttempt() async {
            let weakAttempt = WeakBox<ResultOperation<Int>>()
            let retry = RetryOperation(maximumAttempts: 2) { attempt -> ResultOperation<Int> in
                let operation = ValueOperation<Int>(.failure(TestError(attempt)), later: true)
                weakAttempt.set(operation)
                return operation
            }
            OperationQueue().addOperation(retry)
            await retry.untilFinished()
            await waitUntil(seconds: 10) { weakAttempt.object == nil }
            #expect(weakAttempt.object == nil)
        }

        @Test func backOffStrategiesComputeTheirWaits() {
            #expect(RetryBackoff.immediate.delay(afterAttempt: 4, errors: []) == 0)
            #expect(RetryBackoff.constant(.seconds(1.5)).delay(afterAttempt: 4, errors: []) == 1.5)
            let exact = RetryBackoff.exponential(
                initial: .seconds(0.5), multiplier: 2, maximum: .seconds(3), jitter: 0)
            #expect((1...5).map { exact.delay(afterAttempt: $0, errors: []) } == [0.5, 1, 2, 3, 3])
            let jittered = RetryBackoff.exponential(initial: .seconds(1), multiplier: 3, jitter: 0.5)
            let waits = (0..<500).compactMap { _ in jittered.delay(afterAttempt: 3, errors: []) }
            #expect(waits.allSatisfy { (4.5...9).contains($0) })
            #expect(Set(waits).count > 1, "jitter spreads the waits")
            let custom = RetryBackoff.custom { attempt, errors in errors.isEmpty ? Double(attempt) : nil }
            #expect(custom.delay(afterAttempt: 2, errors: []) == 2)
            #expect(custom.delay(afterAttempt: 2, errors: [TestError()]) == nil)
        }
    }
}
