import ConditionalOperationsTesting
import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests {
    /// S21: `waitUntilIdle()` on any queue, `shutdown(gracePeriod:)` on a `ConditionalOperationQueue`.
    @Suite(.serialized) struct S21QueueLifeTests {
        /// Waits for `body` within a time bound; `false` if it did not return in time.
        static func returns(within seconds: Double = 20, _ body: @escaping @Sendable () async -> Void) async
            -> Bool
        {
            (try? await within(seconds: seconds) { await body() }?.get()) != nil
        }

        /// A `ConditionalOperationQueue` executing an operation that finishes only when told to.
        static func queueRunningAnOperation() async -> (ConditionalOperationQueue, ProbeOperation) {
            let queue = ConditionalOperationQueue()
            let running = ProbeOperation(.never)
            queue.addOperation(running)
            #expect(await running.executing.wait())
            return (queue, running)
        }

        /// A delegate told an operation is about to be added shuts the queue down: the operation,
        /// added after, finishes without running, as one added once the shutdown began.
        @Test func S21_anOperationWhoseQueueShutDownAsItWasBeingAddedDoesNotRun() async {
            final class ShuttingDown: ConditionalOperationQueueDelegate {
                func operationQueue(
                    _ queue: ConditionalOperationQueue, willAdd operation: Foundation.Operation
                ) {
                    _ = queue.beginShutdown()
                }
            }
            let queue = ConditionalOperationQueue()
            let delegate = ShuttingDown()
            queue.delegate = delegate
            let operation = ProbeOperation()
            let done = completionLatch([operation])
            queue.addOperation(operation)
            #expect(await done.wait(seconds: 10))
            #expect(operation.executions.current == 0)
            #expect(operation.errors.contains { ($0 as? OperationError) == .queueShutDown })
        }

        /// A barrier block added before the shutdown began is not cancelled by it, though its own
        /// admission comes after: an operation added after it waits for it, and it for the one
        /// before it.
        @Test func S21_aBarrierBlockAddedBeforeTheShutdownStillHoldsBackTheOperationsAfterIt() async {
            final class AddingThenShuttingDown: ConditionalOperationQueueDelegate {
                let later: ConditionalOperation
                let hasActed = Locked(false)
                init(later: ConditionalOperation) { self.later = later }
                func operationQueue(
                    _ queue: ConditionalOperationQueue, willAdd operation: Foundation.Operation
                ) {
                    let acts =
                        operation is BlockOperation
                        && !hasActed.withLock { hasActed in
                            defer { hasActed = true }
                            return hasActed
                        }
                    guard acts else { return }
                    queue.addOperation(later)
                    _ = queue.beginShutdown()
                }
            }
            let order = Recorder()
            let release = DispatchSemaphore(value: 0)
            let earlier = ClosureOperation<Void> { operation in
                _ = release.wait(timeout: .now() + 10)
                order.record("earlier")
                operation.finish()
            }
            let later = ClosureOperation<Void> { operation in
                order.record("later")
                operation.finish()
            }
            let queue = ConditionalOperationQueue()
            let delegate = AddingThenShuttingDown(later: later)
            queue.delegate = delegate
            let done = completionLatch([earlier, later])
            queue.addOperation(earlier)
            queue.addBarrierBlock { order.record("barrier") }
            #expect(!later.isFinished, "it waits for the barrier")
            release.signal()
            #expect(await done.wait(seconds: 15))
            #expect(order.all == ["earlier", "barrier", "later"])
        }

        /// Shuts `queue` down in a task, returned once the queue says it is shut down.
        static func beginShutdown(
            of queue: ConditionalOperationQueue, gracePeriod: Duration
        ) async -> Task<Void, Never> {
            let shutdown = Task { await queue.shutdown(gracePeriod: gracePeriod) }
            await waitUntil(seconds: 10) { queue.isShutDown }
            return shutdown
        }

        static func isShutDownError(_ error: any Error) -> Bool {
            if case .queueShutDown = error as? OperationError { return true }
            return false
        }

        // MARK: waitUntilIdle

        @Test(arguments: [false, true])
        func S21_waitUntilIdleReturnsOnceEveryOperationAddedBeforeFinished(conditional: Bool) async {
            let queue = conditional ? ConditionalOperationQueue() : OperationQueue()
            let condition = ManualCondition(name: "held back")
            let held = ProbeOperation()
            held.addCondition(condition)
            let running = ProbeOperation(.never)
            let plain = BlockOperation {}
            queue.addOperation(held)
            queue.addOperation(running)
            queue.addOperation(plain)
            let returned = Latch()
            Task {
                await queue.waitUntilIdle()
                returned.countDown()
            }
            #expect(await running.executing.wait())
            #expect(!(await returned.wait(seconds: 0.2)), "two operations are unfinished")
            running.finish()
            #expect(!(await returned.wait(seconds: 0.2)), "the held-back one is unfinished")
            condition.answer(.satisfied)
            #expect(await returned.wait())
            #expect(held.isFinished && running.isFinished && plain.isFinished)
        }

        @Test func S21_waitUntilIdleHoldsNoThread() async {
            let (queue, running) = await Self.queueRunningAnOperation()
            // Far more waiters than the cooperative pool has threads: were a wait to hold one, the
            // task below could not run.
            let waiters = (0..<200).map { _ in Task { await queue.waitUntilIdle() } }
            // A way out for a wait that does hold threads: the test then fails instead of hanging.
            DispatchQueue.global().asyncAfter(deadline: .now() + 10) {
                if !running.isFinished { running.finish() }
            }
            #expect(await Self.returns(within: 5) { _ = await Task { 1 }.value }, "a task runs meanwhile")
            running.finish()
            #expect(await Self.returns { for waiter in waiters { await waiter.value } })
        }

        @Test func S21_waitUntilIdleDoesNotWaitForOperationsAddedAfterTheCall() async {
            let queue = ConditionalOperationQueue()
            let first = ProbeOperation(.finishLater)
            queue.addOperation(first)
            let idle = Latch()
            // What `waitUntilIdle()` does on its first step, synchronously: the operations added so
            // far are the ones it waits for.
            queue.whenIdle(excluding: nil) { idle.countDown() }
            let later = ProbeOperation(.never)
            queue.addOperation(later)
            #expect(await idle.wait())
            #expect(first.isFinished && !later.isFinished)
            later.finish()
        }

        @Test func S21_anOperationAwaitingItsOwnQueuesIdleDoesNotWaitForItself() async throws {
            let queue = ConditionalOperationQueue()
            let other = ProbeOperation(.finishLater)
            let waiter = AsyncOperation(name: "waiter") {
                await queue.waitUntilIdle()
                return other.isFinished
            }
            queue.addOperation(other)
            #expect(try await Self.returnsValue { try await queue.run(waiter) } == true)
        }

        static func returnsValue<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws
            -> T?
        {
            try await within(seconds: 20) { try await body() }?.get()
        }

        // MARK: shutdown

        @Test func S21_anOperationAddedAfterShutdownIsCancelledWithQueueShutDownAndFinishes() async {
            let queue = ConditionalOperationQueue()
            await queue.shutdown(gracePeriod: .seconds(1))
            #expect(queue.isShutDown)
            let late = ProbeOperation()
            let plain = BlockOperation {}
            let done = completionLatch([late, plain])
            queue.addOperation(late)
            queue.addOperation(plain)
            #expect(await done.wait())
            #expect(late.executions.current == 0 && late.isCancelled)
            #expect(late.errors.contains(where: Self.isShutDownError))
            #expect(plain.isCancelled)
        }

        @Test func S21_operationsFinishingWithinTheGracePeriodAreNotCancelled() async {
            let (queue, running) = await Self.queueRunningAnOperation()
            let shutdown = Task { await queue.shutdown(gracePeriod: .seconds(30)) }
            running.finish()
            #expect(await Self.returns { await shutdown.value }, "idle before the grace period ended")
            #expect(!running.isCancelled && running.errors.isEmpty)
        }

        /// Executing, and waiting for a dependency, a condition, a category and a queue slot: once
        /// the grace period is over, every one is cancelled with `queueShutDown`, and it returns.
        @Test func S21_afterTheGracePeriodEveryUnfinishedOperationIsCancelled() async {
            let queue = ConditionalOperationQueue()
            let category = "S21.category.\(UUID())"
            let executing = ProbeOperation(.never)
            executing.addCondition(MutuallyExclusive(category: category))
            let forCategory = ProbeOperation()
            forCategory.addCondition(MutuallyExclusive(category: category))
            let forDependency = ProbeOperation()
            forDependency.addDependency(executing)
            let forCondition = ProbeOperation()
            forCondition.addCondition(ManualCondition(name: "never answered"))
            let slotQueue = ConditionalOperationQueue()
            slotQueue.maxConcurrentOperationCount = 1
            let blocker = ProbeOperation(.never)
            let forSlot = ProbeOperation()
            slotQueue.addOperation(blocker)
            #expect(await blocker.executing.wait())
            slotQueue.addOperation(forSlot)
            for operation in [executing, forCategory, forDependency, forCondition] {
                queue.addOperation(operation)
            }
            #expect(await executing.executing.wait())
            #expect(await Self.returns { await queue.shutdown(gracePeriod: .milliseconds(100)) })
            #expect(await Self.returns { await slotQueue.shutdown(gracePeriod: .milliseconds(100)) })
            for operation in [executing, forCategory, forDependency, forCondition, blocker, forSlot] {
                #expect(operation.isFinished && operation.isCancelled)
                #expect(operation.errors.contains(where: Self.isShutDownError), "\(operation.errors)")
            }
            #expect(forSlot.executions.current == 0 && forDependency.executions.current == 0)
        }

        @Test func S21_anOperationAddedDuringTheGracePeriodDoesNotRun() async {
            let (queue, running) = await Self.queueRunningAnOperation()
            let shutdown = await Self.beginShutdown(of: queue, gracePeriod: .seconds(30))
            let late = ProbeOperation()
            let done = completionLatch([late])
            queue.addOperation(late)
            #expect(await done.wait())
            #expect(late.executions.current == 0 && late.errors.contains(where: Self.isShutDownError))
            running.finish()
            #expect(await Self.returns { await shutdown.value })
            #expect(!running.isCancelled, "it finished within the grace period")
        }

        @Test func S21_producedOperationsAndConditionDependenciesAfterShutdownDoNotRun() async {
            let (queue, running) = await Self.queueRunningAnOperation()
            let shutdown = await Self.beginShutdown(of: queue, gracePeriod: .seconds(30))
            let ran = Counter()
            let produced = BlockOperation { ran.increment() }
            let late = ProbeOperation()
            let needsSetup = S3ConditionDependencyTests.NeedsSetup()
            late.addCondition(needsSetup)
            let done = completionLatch([late, produced])
            running.produceOperation(produced)  // to the producer's queue (S10)
            queue.addOperation(late)
            #expect(await done.wait())
            #expect(ran.current == 0 && produced.isCancelled)
            #expect(late.executions.current == 0)
            // Cancelled as it is added, it never asks its condition for a dependency: none runs.
            #expect(needsSetup.asked.current == 0 && !needsSetup.setup.isExecuting)
            running.finish()
            #expect(await Self.returns { await shutdown.value })
        }

        @Test func S21_aRetrysNextAttemptAfterShutdownDoesNotRun() async {
            let queue = ConditionalOperationQueue()
            let first = ProbeOperation(.never)
            let second = ProbeOperation()
            let retry = RetryOperation(maximumAttempts: 2) { number in number == 1 ? first : second }
            queue.addOperation(retry)
            #expect(await first.executing.wait())
            let shutdown = await Self.beginShutdown(of: queue, gracePeriod: .seconds(30))
            first.finish(errors: [TestError(1)])  // a failed attempt: the next goes to the retry's queue
            #expect(await Self.returns { await shutdown.value })
            #expect(second.executions.current == 0 && second.errors.contains(where: Self.isShutDownError))
            #expect(retry.isFinished && retry.errors.contains(where: Self.isShutDownError))
        }

        @Test func S21_aSecondShutdownKeepsTheFirstGracePeriodAndReturnsOnceIdle() async {
            let (queue, running) = await Self.queueRunningAnOperation()
            let first = await Self.beginShutdown(of: queue, gracePeriod: .milliseconds(300))
            #expect(
                await Self.returns { await queue.shutdown(gracePeriod: .seconds(3600)) },
                "the first grace period holds")
            #expect(running.isCancelled)
            #expect(await Self.returns { await first.value })
        }

        @Test func S21_theDiagnosisOfAShutDownQueueSaysSo() async {
            let queue = ConditionalOperationQueue()
            queue.name = "jobs"
            await queue.shutdown(gracePeriod: .zero)
            #expect(
                queue.diagnosticReport.hasPrefix(
                    "ConditionalOperationQueue 'jobs': 0 unfinished, shut down, running"))
        }
    }
}
