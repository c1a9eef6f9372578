import ConditionalOperationsTesting
import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests.CompositionTests {
    /// S25: a composite becomes finished only after what it ran is finished (`isFinished` true),
    /// so that a dependent never runs beside the end of what it depends on. Each case runs in
    /// rounds: the window is a few instructions wide.
    @Suite(.serialized) struct S25CompositeEndTests {
        static let rounds = 200

        /// What the composite's `didFinish` observer and its dependent saw of the last operation
        /// it ran: whether it was finished.
        struct Seen: Equatable {
            var byObserver: Bool?
            var byDependent: Bool?
        }

        /// Runs `composite` with a `didFinish` observer and a dependent, on `queue`, and returns
        /// whether each saw `last()` finished.
        static func seen(
            running composite: ConditionalOperation, on queue: OperationQueue,
            last: @escaping @Sendable () -> ConditionalOperation?
        ) async -> Seen {
            let seen = Box(Seen())
            composite.addObserver(
                BlockObserver(didFinish: { _, _ in seen.value.byObserver = last()?.isFinished }))
            let dependent = ClosureOperation<Void> { operation in
                seen.value.byDependent = last()?.isFinished
                operation.finish()
            }
            dependent.addDependency(composite)
            queue.addOperation(composite)
            queue.addOperation(dependent)
            await dependent.untilFinished()
            return seen.value
        }

        @Test(arguments: [false, true])
        func S25_aRetryFinishesOnlyAfterItsLastAttemptIsFinished(onConditionalQueue: Bool) async {
            let queue = onConditionalQueue ? ConditionalOperationQueue() : OperationQueue()
            for round in 0..<Self.rounds {
                let attempts = Box<[ConditionalOperation]>([])
                let retry = RetryOperation(maximumAttempts: 2) { number in
                    let attempt = ValueOperation<Int>(
                        number == 2 ? .success(number) : .failure(TestError(number)))
                    attempts.value.append(attempt)
                    return attempt
                }
                let seen = await Self.seen(running: retry, on: queue) { attempts.value.last }
                #expect(seen == Seen(byObserver: true, byDependent: true), "round \(round)")
                #expect(attempts.value.count == 2)
                guard seen == Seen(byObserver: true, byDependent: true) else { return }
            }
        }

        @Test func S25_aFailedRetryFinishesOnlyAfterItsLastAttemptIsFinished() async {
            let queue = ConditionalOperationQueue()
            for round in 0..<Self.rounds {
                let attempt = Box<ConditionalOperation?>(nil)
                let retry = RetryOperation(maximumAttempts: 1) { number in
                    let made = ValueOperation<Int>(.failure(TestError(number)))
                    attempt.value = made
                    return made
                }
                let seen = await Self.seen(running: retry, on: queue) { attempt.value }
                #expect(seen == Seen(byObserver: true, byDependent: true), "round \(round)")
                guard seen == Seen(byObserver: true, byDependent: true) else { return }
            }
        }

        @Test func S25_aCancelledRetryFinishesOnlyAfterItsCancelledAttemptIsFinished() async {
            let queue = ConditionalOperationQueue()
            for round in 0..<Self.rounds {
                let attempt = Box<ConditionalOperation?>(nil)
                let running = Latch()
                let retry = RetryOperation<Int>(maximumAttempts: 3) { _ in
                    let made = HeldOperation()
                    made.addObserver(BlockObserver(didStart: { _ in running.countDown() }))
                    attempt.value = made
                    return made
                }
                let cancelled = Task {
                    _ = await running.wait()
                    retry.cancel()
                }
                let seen = await Self.seen(running: retry, on: queue) { attempt.value }
                await cancelled.value
                #expect(retry.isCancelled)
                #expect(seen == Seen(byObserver: true, byDependent: true), "round \(round)")
                guard seen == Seen(byObserver: true, byDependent: true) else { return }
            }
        }

        @Test func S25_aRepeatFinishesOnlyAfterItsLastIterationIsFinished() async {
            let queue = ConditionalOperationQueue()
            for round in 0..<Self.rounds {
                let iterations = Box<[ConditionalOperation]>([])
                let repeated = RepeatOperation<Int>(maximumCount: 2) { number in
                    let iteration = ValueOperation<Int>(.success(number))
                    iterations.value.append(iteration)
                    return iteration
                }
                let seen = await Self.seen(running: repeated, on: queue) { iterations.value.last }
                #expect(seen == Seen(byObserver: true, byDependent: true), "round \(round)")
                guard seen == Seen(byObserver: true, byDependent: true) else { return }
            }
        }
    }
}
