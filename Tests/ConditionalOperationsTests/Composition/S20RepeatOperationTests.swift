import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests.CompositionTests {
    /// S20: `RepeatOperation` runs its iterations one at a time until it is told to stop.
    @Suite struct S20RepeatOperationTests {
        typealias Occupancy = ConditionalOperationsTests.S7MutualExclusivityTests.Occupancy

        /// An iteration returning `value` from another thread, inside `occupancy`.
        static func iteration(_ value: Int, occupancy: Occupancy? = nil, recorder: Recorder? = nil)
            -> ClosureOperation<Int>
        {
            ClosureOperation<Int> { operation in
                occupancy?.enter()
                recorder?.record("\(value)")
                DispatchQueue.global().async {
                    occupancy?.leave()
                    operation.finish(returning: value)
                }
            }
        }

        @Test func S20_itRunsIterationsOneAtATimeUntilMakeIterationReturnsNil() async throws {
            let occupancy = Occupancy()
            let order = Recorder()
            let asked = Recorder()
            let poll = RepeatOperation<Int> { number in
                asked.record("\(number)")
                return number <= 3 ? Self.iteration(number, occupancy: occupancy, recorder: order) : nil
            }
            #expect(try await ConditionalOperationQueue().run(poll) == 3, "the last iteration's output")
            #expect(order.all == ["1", "2", "3"])
            #expect(asked.all == ["1", "2", "3", "4"])
            #expect(occupancy.peak == 1, "one at a time")
            #expect(poll.iterationCount == 3)
        }

        @Test func S20_itStopsAfterMaximumCountIterations() async throws {
            let asked = Recorder()
            let poll = RepeatOperation<Int>(maximumCount: 4) { number in
                asked.record("\(number)")
                return Self.iteration(number)
            }
            #expect(try await OperationQueue().run(poll) == 4)
            #expect(asked.all == ["1", "2", "3", "4"])
            #expect(poll.iterationCount == 4)
        }

        @Test func S20_itStopsAtTheFirstFailedIterationWithItsErrors() async {
            let poll = RepeatOperation<Int> { number in
                number == 2
                    ? ClosureOperation<Int> { $0.finish(error: TestError(2)) } : Self.iteration(number)
            }
            let done = completionLatch([poll])
            OperationQueue().addOperation(poll)
            #expect(await done.wait())
            #expect(testErrorIDs(poll.errors) == [2])
            #expect(poll.iterationCount == 2)
            #expect(!poll.isCancelled)
        }

        @Test func S20_cancellingItCancelsTheRunningIterationAndFinishesAfterIt() async {
            let running = Latch()
            let iteration = ClosureOperation<Int> { _ in running.countDown() }  // ends only when cancelled
            let iterationFinishedFirst = Box(false)
            let poll = RepeatOperation<Int> { number in number == 1 ? iteration : nil }
            poll.addObserver(
                BlockObserver(didFinish: { _, _ in iterationFinishedFirst.value = iteration.isFinished }))
            let done = completionLatch([poll])
            OperationQueue().addOperation(poll)
            #expect(await running.wait())
            poll.cancel()
            #expect(await done.wait())
            #expect(iteration.isCancelled && poll.isCancelled)
            #expect(iterationFinishedFirst.value, "it finished after its iteration (S5)")
        }

        @Test func S20_cancellingItWhileItWaitsEndsTheWaitAtOnce() async {
            let first = Latch()
            let poll = RepeatOperation<Int>(interval: .constant(.seconds(600))) { number in
                ClosureOperation<Int> { operation in
                    operation.finish(returning: number)
                    first.countDown()
                }
            }
            let done = completionLatch([poll])
            OperationQueue().addOperation(poll)
            #expect(await first.wait())
            await waitUntil(seconds: 10) { poll.iterationCount == 1 && poll.isExecuting }
            poll.cancel()
            #expect(await done.wait(seconds: 10), "not after the 600 s interval")
            #expect(poll.iterationCount == 1)
        }

        @Test func S20_itWaitsTheIntervalBetweenIterations() async throws {
            let starts = Locked<[ContinuousClock.Instant]>([])
            let poll = RepeatOperation<Int>(maximumCount: 2, interval: .constant(.seconds(0.2))) { number in
                ClosureOperation<Int> { operation in
                    starts.withLock { $0.append(.now) }
                    operation.finish(returning: number)
                }
            }
            _ = try await OperationQueue().run(poll)
            let times = starts.withLock { $0 }
            #expect(times.count == 2)
            if times.count == 2 { #expect(times[1] - times[0] >= .milliseconds(190)) }
        }

        @Test func S20_anIntervalThatAnswersNilStopsIt() async throws {
            let poll = RepeatOperation<Int>(interval: .custom { number, _ in number < 2 ? 0 : nil }) {
                number in
                Self.iteration(number)
            }
            #expect(try await OperationQueue().run(poll) == 2)
            #expect(poll.iterationCount == 2)
        }

        @Test func S20_noIterationAtAllFinishesWithADescriptiveError() async {
            let poll = RepeatOperation<Int> { _ in nil }
            await #expect(throws: OperationError.self) { try await OperationQueue().run(poll) }
            #expect(poll.iterationCount == 0)
        }

        /// S32: in the repeat operation's own place, never on its queue, where they would wait for
        /// a slot it holds and be reported to its delegate.
        @Test func S32_iterationsRunOnTheLibrarysQueueNotTheRepeatOperations() async throws {
            let queue = ConditionalOperationQueue()
            let seen = WeakBox<OperationQueue>()
            let poll = RepeatOperation<Int>(maximumCount: 1) { number in
                ClosureOperation<Int> { operation in
                    seen.set(ConditionalOperationQueue.current)
                    operation.finish(returning: number)
                }
            }
            _ = try await queue.run(poll)
            #expect(seen.object !== queue)
            #expect(seen.object === LibraryQueue.attempts)
        }

        @Test func S20_onAQueueOfOneTheIterationsRunOnTheLibrarysQueue() async throws {
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 1
            let poll = RepeatOperation<Int>(maximumCount: 2) { Self.iteration($0) }
            #expect(try await queue.run(poll) == 2, "no deadlock: the iterations do not wait for it")
        }

        @Test func S20_makeIterationMayStopOnWhatThePreviousIterationReturned() async throws {
            let asked = Recorder()
            let poll = RepeatOperation<Int> { number, previous in
                asked.record("\(number): \(previous.map(String.init) ?? "nil")")
                return previous == 30 ? nil : Self.iteration(number * 10)
            }
            #expect(try await ConditionalOperationQueue().run(poll) == 30)
            #expect(asked.all == ["1: nil", "2: 10", "3: 20", "4: 30"])
            #expect(poll.iterationCount == 3)
        }

        @Test func S20_thePreviousOutputWithAnIntervalAndAMaximumCount() async throws {
            let previousOutputs = Recorder()
            let poll = RepeatOperation<String>(maximumCount: 3, interval: .constant(.milliseconds(10))) {
                number, previous -> ResultOperation<String>? in
                previousOutputs.record(previous ?? "none")
                return ClosureOperation<String> { $0.finish(returning: "run \(number)") }
            }
            #expect(try await OperationQueue().run(poll) == "run 3")
            #expect(previousOutputs.all == ["none", "run 1", "run 2"])
        }
    }
}
