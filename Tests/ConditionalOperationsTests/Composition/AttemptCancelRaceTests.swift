import ConditionalOperationsTesting
import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests.CompositionTests {
    /// A cancel of a `RetryOperation` or `RepeatOperation` and the end of its attempt, whatever
    /// their order: the cancel is decided in the operation's own trip through its lock, so an
    /// attempt that ends right after it starts no other, and asks no user code whether to.
    @Suite struct AttemptCancelRaceTests {
        /// Cancels `composite` and, from its `didCancel` observer (after the operation's cancel,
        /// before the cancel reached the running attempt), ends that attempt with `end`.
        static func cancel(
            _ composite: ConditionalOperation, endingItsAttemptWith end: @escaping @Sendable () -> Void
        ) {
            composite.addObserver(BlockObserver(didCancel: { _, _ in end() }))
            composite.cancel()
        }

        @Test func S5_anAttemptFailingAsTheRetryIsCancelledStartsNoOther() async {
            let attempt = HeldOperation()
            let made = Counter()
            let asked = Counter()
            let cancelled = Box(false)
            let retry = RetryOperation(
                maximumAttempts: 3, shouldRetry: { _ in cancelled.value ? asked.increment() > 0 : true },
                makeAttempt: { number -> ResultOperation<Int> in
                    made.increment()
                    return number == 1 ? attempt : HeldOperation()
                })
            let done = completionLatch([retry])
            OperationQueue().addOperation(retry)
            #expect(await attempt.executing.wait())
            cancelled.value = true
            Self.cancel(retry) { attempt.finish(error: TestError(1)) }
            #expect(await done.wait())
            #expect(asked.current == 0, "shouldRetry asked after the cancel")
            #expect(made.current == 1, "an attempt made after the cancel")
            #expect(testErrorIDs(retry.errors) == [1])
            #expect(retry.isCancelled)
        }

        @Test func S5_anIterationSucceedingAsTheRepeatIsCancelledStartsNoOther() async throws {
            let iteration = HeldOperation()
            let asked = Counter()
            let cancelled = Box(false)
            let poll = RepeatOperation<Int>(
                interval: .custom { _, _ in
                    if cancelled.value { asked.increment() }
                    return 0
                }
            ) { number in number == 1 ? iteration : ValueOperation(.success(number)) }
            let done = completionLatch([poll])
            OperationQueue().addOperation(poll)
            #expect(await iteration.executing.wait())
            cancelled.value = true
            Self.cancel(poll) { iteration.finish(returning: 1) }
            #expect(await done.wait())
            #expect(asked.current == 0, "the interval asked after the cancel")
            #expect(poll.iterationCount == 1, "an iteration made after the cancel")
            #expect(poll.isCancelled)
            #expect(poll.errors.isEmpty)
        }

        @Test func S4_aCompositeCancelledAsItStartsMakesNoAttempt() async {
            let made = Counter()
            let retry = RetryOperation<Void>(maximumAttempts: 2) { _ in
                made.increment()
                return ProbeOperation()
            }
            let poll = RepeatOperation<Void> { _ in
                made.increment()
                return ClosureOperation<Void> { $0.finish() }
            }
            for composite in [retry, poll] as [ConditionalOperation] {
                composite.addObserver(BlockObserver(didStart: { $0.cancel() }))
            }
            let done = completionLatch([retry, poll])
            OperationQueue().add([retry, poll])
            #expect(await done.wait())
            #expect(made.current == 0)
            #expect(retry.attemptCount == 0)
            #expect(poll.iterationCount == 0)
            #expect(retry.isCancelled && poll.isCancelled)
        }

        @Test func S5_aRetryCancelledWhileItsAttemptIsMadeRunsItCancelledAndNoOther() async {
            let made = Counter()
            let retry = Box<RetryOperation<Int>?>(nil)
            retry.value = RetryOperation(maximumAttempts: 3) { number -> ResultOperation<Int> in
                made.increment()
                retry.value?.cancel()  // while the attempt is being made
                return ValueOperation(.success(number))
            }
            guard let operation = retry.value else { return }
            let done = completionLatch([operation])
            OperationQueue().addOperation(operation)
            #expect(await done.wait())
            #expect(made.current == 1)
            #expect(operation.attemptCount == 1)
            #expect(operation.isCancelled)
            #expect(operation.result?.failure is CancellationError, "its attempt ran cancelled: no value")
            retry.value = nil
        }

        @Test func theLastAttemptFailingAsTheRetryIsCancelledFinishesWithItsErrors() async {
            let attempts = Locked<[HeldOperation]>([])
            let retry = RetryOperation(maximumAttempts: 2) { number -> ResultOperation<Int> in
                if number == 1 { return ValueOperation(.failure(TestError(1))) }
                let attempt = HeldOperation()
                attempts.withLock { $0.append(attempt) }
                return attempt
            }
            let done = completionLatch([retry])
            OperationQueue().addOperation(retry)
            await waitUntil(seconds: 10) { attempts.withLock { !$0.isEmpty } }
            guard let last = attempts.withLock({ $0.first }) else {
                Issue.record("the second attempt was not made")
                return
            }
            #expect(await last.executing.wait())
            Self.cancel(retry) { last.finish(error: TestError(2)) }
            #expect(await done.wait())
            #expect(retry.attemptCount == 2)
            #expect(testErrorIDs(retry.errors) == [2])
            #expect(throws: TestError(2)) { try retry.result?.get() }
        }
    }
}
