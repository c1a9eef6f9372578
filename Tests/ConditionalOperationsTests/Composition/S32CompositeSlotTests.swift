import ConditionalOperationsTesting
import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests.CompositionTests {
    /// S32: what a composite runs for itself (a retry's attempts, a repeat's iterations) never waits
    /// for a slot of the queue or group that runs the composite, and is not a child of an
    /// enclosing group: to everything outside, the composite is one operation.
    @Suite struct S32CompositeSlotTests {
        /// A retry whose first attempt fails and whose second returns `value`.
        static func retryFailingOnce(_ value: Int) -> RetryOperation<Int> {
            let retry = RetryOperation<Int>(maximumAttempts: 2) { number in
                let attempt = ValueOperation<Int>(number == 1 ? .failure(TestError(number)) : .success(value))
                attempt.name = "attempt \(number)"
                return attempt
            }
            retry.name = "retry \(value)"
            return retry
        }

        /// A repeat of two iterations, the second returning `value`.
        static func repeatTwice(_ value: Int) -> RepeatOperation<Int> {
            RepeatOperation<Int>(maximumCount: 2) { number in
                ValueOperation<Int>(.success(value * 10 + number))
            }
        }

        @Test(arguments: [1, 3])
        func S32_retriesInAGroupAsWideAsTheyAreManyFinish(width: Int) async {
            let retries = (0..<width).map { Self.retryFailingOnce($0) }
            let group = GroupOperation(operations: retries)
            group.maxConcurrentChildren = width
            ConditionalOperationQueue().addOperation(group)
            let outcome = await within { await group.untilFinished() }
            #expect(outcome != nil, "the attempts waited for a slot their retries hold")
            guard outcome != nil else { return group.cancel() }
            #expect(group.errors.isEmpty)
            #expect(retries.map(\.result).map { try? $0?.get() } == (0..<width).map { $0 })
        }

        @Test(arguments: [1, 3])
        func S32_retriesOnAQueueAsWideAsTheyAreManyFinish(width: Int) async {
            let queue = ConditionalOperationQueue()
            queue.maxConcurrentOperationCount = width
            let retries = (0..<width).map { Self.retryFailingOnce($0) }
            queue.addOperations(retries, waitUntilFinished: false)
            let outcome = await within { for retry in retries { await retry.untilFinished() } }
            #expect(outcome != nil, "the attempts waited for a slot their retries hold")
            guard outcome != nil else { return queue.cancelAllOperations() }
            #expect(retries.allSatisfy { $0.errors.isEmpty })
        }

        @Test(arguments: [1, 3])
        func S32_repeatsInAGroupAsWideAsTheyAreManyFinish(width: Int) async {
            let repeats = (0..<width).map { Self.repeatTwice($0) }
            let group = GroupOperation(operations: repeats)
            group.maxConcurrentChildren = width
            ConditionalOperationQueue().addOperation(group)
            let outcome = await within { await group.untilFinished() }
            #expect(outcome != nil, "the iterations waited for a slot their repeats hold")
            guard outcome != nil else { return group.cancel() }
            #expect(repeats.map { try? $0.result?.get() } == (0..<width).map { $0 * 10 + 2 })
        }

        @Test func S32_aRetryThatSucceedsLeavesItsGroupWithoutErrorsAndItsOnlyChild() async {
            let retry = Self.retryFailingOnce(7)
            let group = GroupOperation(operations: [retry])
            ConditionalOperationQueue().addOperation(group)
            let outcome = await within { await group.untilFinished() }
            #expect(outcome != nil)
            #expect(group.errors.isEmpty, "the failed attempt's error reached the group")
            #expect(group.children.map(\.name) == ["retry 7"])
        }

        final class FinishReports: ConditionalOperationQueueDelegate {
            /// Each reported operation's name, and whether its last attempt was finished then.
            let reports = Locked<[String]>([])
            let lastAttempt = Locked<ConditionalOperation?>(nil)

            func operationQueue(
                _ queue: ConditionalOperationQueue, operationDidFinish operation: Foundation.Operation,
                errors: [any Error]
            ) {
                let attemptFinished = lastAttempt.withLock { $0?.isFinished } ?? false
                reports.withLock { $0.append("\(operation.name ?? "?") \(attemptFinished)") }
            }
        }

        @Test func S32_theQueueReportsARetryOnceAfterItsLastAttempt() async {
            let queue = ConditionalOperationQueue()
            let delegate = FinishReports()
            queue.delegate = delegate
            let retry = RetryOperation<Int>(maximumAttempts: 2) { number in
                let attempt = ValueOperation<Int>(number == 1 ? .failure(TestError(1)) : .success(2))
                attempt.name = "attempt \(number)"
                delegate.lastAttempt.withLock { $0 = attempt }
                return attempt
            }
            retry.name = "retry"
            queue.addOperation(retry)
            #expect(await within { await queue.waitUntilIdle() } != nil)
            await waitUntil { !delegate.reports.withLock { $0 }.isEmpty }
            #expect(delegate.reports.withLock { $0 } == ["retry true"])
        }

        @Test(arguments: [false, true])
        func S32_aCancelEndsARetryWhoseQueueIsFull(byDeadline: Bool) async {
            let queue = ConditionalOperationQueue()
            queue.maxConcurrentOperationCount = 2
            let retries = (0..<2).map { _ in RetryOperation<Int>(maximumAttempts: 3) { _ in HeldOperation() }
            }
            if byDeadline { retries[0].addDeadline(after: .milliseconds(200)) }
            queue.addOperations(retries, waitUntilFinished: false)
            await waitUntil(seconds: 10) { retries.allSatisfy { $0.state == .executing } }
            if !byDeadline { retries[0].cancel() }
            let outcome = await within { await retries[0].untilFinished() }
            #expect(outcome != nil, "the cancelled attempt waited for a slot the retries hold")
            #expect(retries[0].isCancelled)
            retries[1].cancel()
            #expect(await within { await retries[1].untilFinished() } != nil)
        }

        @Test func S32_aShutDownQueueRunsNoNextAttempt() async {
            let queue = ConditionalOperationQueue()
            let firstRunning = Latch()
            let release = Latch()
            let made = Counter()
            let retry = RetryOperation<Int>(maximumAttempts: 3) { number in
                _ = made.increment()
                return ClosureOperation<Int> { operation in
                    guard number == 1 else { return operation.finish(returning: number) }
                    firstRunning.countDown()
                    Task {
                        _ = await release.wait(seconds: 10)
                        operation.finish(error: TestError(1))
                    }
                }
            }
            queue.addOperation(retry)
            #expect(await firstRunning.wait(seconds: 10))
            let shutdown = Task { await queue.shutdown(gracePeriod: .seconds(20)) }
            await waitUntil { queue.isShutDown }
            release.countDown()
            #expect(await within { await shutdown.value } != nil)
            #expect(retry.errors.contains { ($0 as? OperationError) == .queueShutDown })
            #expect((try? retry.result?.get()) == nil, "an attempt ran after its queue was shut down")
        }
    }
}
