import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests {
    /// S14: `value`, `queue.run` and `waitUntilFinished()` wait without holding a thread; the
    /// awaiting task's cancellation ends `value`'s wait only, and cancels what `run` owns.
    @Suite struct S14AwaitingTests {
        @Test func S14_valueReturnsTheOutputOnceFinished() async throws {
            let operation = ClosureOperation<Int> { $0.finish(returning: 42) }
            OperationQueue().addOperation(operation)
            let value = await within { try await operation.value }
            #expect(try value?.get() == 42)
        }

        @Test func S14_valueThrowsTheFirstError() async {
            let operation = ClosureOperation<Int> { $0.finish(errors: [TestError(1), TestError(2)]) }
            OperationQueue().addOperation(operation)
            let value = await within { try await operation.value }
            #expect(throws: TestError(1)) { try value?.get() }
        }

        @Test func S14_valueThrowsCancellationErrorForAnOperationCancelledWithoutAnError() async {
            let operation = ClosureOperation<Int> { $0.finish(returning: 1) }
            operation.cancel()
            OperationQueue().addOperation(operation)
            let value = await within { try await operation.value }
            #expect(throws: CancellationError.self) { try value?.get() }
        }

        @Test func S14_valueThrowsADescriptiveErrorForAnOperationFinishedWithoutAValue() async {
            let operation = ClosureOperation<Int>(name: "silent") { $0.finish() }
            OperationQueue().addOperation(operation)
            let value = await within { try await operation.value }
            #expect(throws: OperationError.finishedWithoutValue(name: "ClosureOperation<Int> 'silent'")) {
                try value?.get()
            }
        }

        @Test func S14_cancellingTheTaskAwaitingValueEndsTheWaitAtOnceAndLeavesTheOperationRunning()
            async throws
        {
            let operation = HeldOperation()
            OperationQueue().addOperation(operation)
            #expect(await operation.executing.wait())
            let waiting = Task { try await operation.value }
            waiting.cancel()
            let outcome = await within { try await waiting.value }
            #expect(throws: CancellationError.self) { try outcome?.get() }
            #expect(!operation.isCancelled, "others may be waiting for it")
            #expect(operation.state == .executing)
            operation.finish(returning: 7)
            #expect(try await within { try await operation.value }?.get() == 7)
        }

        @Test func S14_runReturnsTheOutputOrThrowsTheFirstError() async throws {
            let queue = ConditionalOperationQueue()
            let sum = AsyncOperation { 2 + 3 }
            let total = try await within { try await queue.run(sum) }?.get()
            #expect(total == 5)
            let failing = ClosureOperation<Void> { $0.finish(error: TestError(3)) }
            let outcome = await within { try await queue.run(failing as ConditionalOperation) }
            #expect(throws: TestError(3)) { try outcome?.get() }
        }

        @Test(arguments: [false, true])
        func S14_cancellingTheCallerOfRunCancelsTheOperationAndRunReturnsOnlyOnceItFinished(
            conditionalQueue: Bool
        ) async {
            let queue = conditionalQueue ? ConditionalOperationQueue() : OperationQueue()
            let started = Latch()
            let cleanedUp = Recorder()
            let operation = AsyncOperation<Void> {
                started.countDown()
                await untilCancelled()
                cleanedUp.record("cleaned up")  // work after the cancel: run must wait for it
                throw CancellationError()
            }
            let caller = Task { try await queue.run(operation) }
            #expect(await started.wait())
            caller.cancel()
            let outcome = await within { try await caller.value }
            #expect(throws: CancellationError.self) { try outcome?.get() }
            #expect(operation.isCancelled)
            #expect(operation.isFinished, "run returned only after the operation finished")
            #expect(cleanedUp.all == ["cleaned up"])
            #expect(operation.errors.isEmpty, "a CancellationError after the cancel adds no error (S15)")
        }

        @Test func S14_waitUntilFinishedReturnsAfterEveryDidFinishObserver() async {
            let operation = AsyncOperation { () }
            let told = Recorder()
            operation.addObserver(BlockObserver(didFinish: { _, _ in told.record("didFinish") }))
            OperationQueue().addOperation(operation)
            let waited = await within { await operation.untilFinished() }
            #expect(waited != nil)
            #expect(told.all == ["didFinish"])
            #expect(operation.isFinished)
        }

        @Test func S14_untilFinishedWaitsForAPlainOperationAndAGroupAfterEveryDidFinishObserver() async {
            let plain = ProbeOperation(.finishLater)
            let group = GroupOperation(operations: [ProbeOperation(.finishLater)])
            let told = Recorder()
            for operation in [plain, group] {
                operation.addObserver(BlockObserver(didFinish: { _, _ in told.record("didFinish") }))
            }
            ConditionalOperationQueue().addOperations([plain, group], waitUntilFinished: false)
            #expect(await within { await plain.untilFinished() } != nil)
            #expect(await within { await group.untilFinished() } != nil)
            #expect(plain.isFinished && group.isFinished)
            #expect(told.all == ["didFinish", "didFinish"])
        }

        /// Synchronous code keeps Foundation's blocking `waitUntilFinished()`: it returns once the
        /// operation finished, on the thread that waited.
        static func waitBlocking(for operation: ConditionalOperation) -> Bool {
            operation.waitUntilFinished()
            return operation.isFinished
        }

        @Test func S14_synchronousCodeKeepsFoundationsBlockingWait() async {
            let operation = ProbeOperation(.finishLater)
            let waited = Latch()
            let finishedWhenWaitReturned = Box(false)
            Thread.detachNewThread {
                finishedWhenWaitReturned.value = Self.waitBlocking(for: operation)
                waited.countDown()
            }
            OperationQueue().addOperation(operation)
            #expect(await waited.wait())
            #expect(finishedWhenWaitReturned.value)
        }

        /// The waits hold no thread, so thousands of them cost no threads.
        @Test func S14_tenThousandTasksAwaitingRunAtOnceAddAtMostFourThreads() async throws {
            let queue = ConditionalOperationQueue()
            let before = ThreadCount.current()
            let peak = Locked(before)
            let sampling = DispatchSource.makeTimerSource(queue: .global())
            sampling.schedule(deadline: .now(), repeating: .milliseconds(1))
            sampling.setEventHandler {
                let now = ThreadCount.current()
                peak.withLock { $0 = max($0, now) }
            }
            sampling.resume()
            let total = await within(seconds: 60) {
                try await withThrowingTaskGroup(of: Int.self) { group in
                    for index in 0..<10_000 {
                        group.addTask { try await queue.run(AsyncOperation { index }) }
                    }
                    return try await group.reduce(0, +)
                }
            }
            sampling.cancel()
            #expect(try total?.get() == (0..<10_000).reduce(0, +))
            let grown = peak.withLock { $0 } - before
            #expect(grown <= 4, "threads grew by \(grown)")
        }
    }
}

/// The process's thread count, from `/proc/self/status` on Linux.
enum ThreadCount {
    static func current() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Threads:") }),
            let count = Int(line.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces))
        else { return 0 }
        return count
    }
}
