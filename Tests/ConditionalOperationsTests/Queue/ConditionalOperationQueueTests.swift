import ConditionalOperationsTesting
import Foundation
import Testing

@testable import ConditionalOperations

/// ConditionalOperationQueue: the delegate, S3, S9 cycles, S10, linear scheduling and
/// Foundation's queue semantics kept.
extension ConditionalOperationsTests {
    @Suite struct ConditionalOperationQueueTests {
        final class RecordingDelegate: ConditionalOperationQueueDelegate {
            let added = Recorder()
            let finished = Recorder()
            let errorCounts = Locked<[String: Int]>([:])

            func operationQueue(_ queue: ConditionalOperationQueue, willAdd operation: Foundation.Operation) {
                added.record(operation.name ?? "?")
            }

            func operationQueue(
                _ queue: ConditionalOperationQueue, operationDidFinish operation: Foundation.Operation,
                errors: [any Error]
            ) {
                // Counted before it is recorded: a test that waits for the record reads the count.
                errorCounts.withLock { $0[operation.name ?? "?"] = errors.count }
                finished.record(operation.name ?? "?")
            }
        }

        static func named<T: Foundation.Operation>(_ operation: T, _ name: String) -> T {
            operation.name = name
            return operation
        }

        @Test func theDelegateHearsOfEveryOperationAddedAndFinished() async {
            let queue = ConditionalOperationQueue()
            let delegate = RecordingDelegate()
            queue.delegate = delegate
            let failing = Self.named(ProbeOperation(.finishWith([TestError(1)])), "failing")
            let plain = Self.named(BlockOperation {}, "plain")
            let done = completionLatch([failing, plain])
            queue.add([failing, plain])
            #expect(await done.wait())
            #expect(Set(delegate.added.all) == ["failing", "plain"])
            await waitUntil { delegate.finished.all.count == 2 }
            #expect(Set(delegate.finished.all) == ["failing", "plain"])
            #expect(delegate.errorCounts.withLock { $0 } == ["failing": 1, "plain": 0])
            #expect(queue.unfinishedOperationCount == 0)
        }

        /// A delegate told an operation finished within the `start()` its drainer gave it hears
        /// it once the next one is on its way, as when an operation finishes elsewhere: one that
        /// waits for the next start (say, for the main thread, which waits for that operation)
        /// holds nothing back. Before, on a queue running one at a time, the next one started
        /// only once the delegate returned.
        @Test func aDelegateWaitingForTheNextStartDoesNotHoldItBack() async {
            final class WaitingDelegate: ConditionalOperationQueueDelegate {
                let nextStarted = DispatchSemaphore(value: 0)
                let sawItStart = Locked<Bool?>(nil)
                let returned = Latch()
                func operationQueue(
                    _ queue: ConditionalOperationQueue, operationDidFinish operation: Foundation.Operation,
                    errors: [any Error]
                ) {
                    guard operation.name == "first" else { return }
                    let started = nextStarted.wait(timeout: .now() + 5) == .success
                    sawItStart.withLock { $0 = started }
                    returned.countDown()
                }
            }
            let queue = ConditionalOperationQueue()
            queue.maxConcurrentOperationCount = 1
            let delegate = WaitingDelegate()
            queue.delegate = delegate
            let first = Self.named(ClosureOperation<Void> { $0.finish() }, "first")
            let second = ClosureOperation<Void> { operation in
                delegate.nextStarted.signal()
                operation.finish()
            }
            let done = completionLatch([first, second])
            queue.addOperations([first, second], waitUntilFinished: false)
            #expect(await done.wait(seconds: 15))
            #expect(await delegate.returned.wait(seconds: 15))
            #expect(
                delegate.sawItStart.withLock { $0 } == true, "the second started while the delegate waited")
        }

        /// A delegate told an operation is about to be added adds a barrier block: the barrier
        /// came first, so the operation waits for it. Before, neither waited for the other: the
        /// operation's admission read the barriers before the delegate was told, and the
        /// barrier read the operations before the operation was registered.
        @Test func anOperationWaitsForABarrierBlockAddedAsItWasBeingAdded() async {
            final class BarrierAdding: ConditionalOperationQueueDelegate {
                let release = DispatchSemaphore(value: 0)
                let order = Recorder()
                func operationQueue(
                    _ queue: ConditionalOperationQueue, willAdd operation: Foundation.Operation
                ) {
                    guard operation.name == "operation" else { return }
                    queue.addBarrierBlock { [self] in
                        _ = release.wait(timeout: .now() + 10)
                        order.record("barrier")
                    }
                }
            }
            let queue = ConditionalOperationQueue()
            let delegate = BarrierAdding()
            queue.delegate = delegate
            let operation = Self.named(
                ClosureOperation<Void> { operation in
                    delegate.order.record("operation")
                    operation.finish()
                }, "operation")
            let done = completionLatch([operation])
            queue.addOperation(operation)
            #expect(operation.dependencies.count == 1, "it depends on the barrier")
            delegate.release.signal()
            #expect(await done.wait(seconds: 15))
            #expect(delegate.order.all == ["barrier", "operation"])
        }

        /// A barrier block added while another was being added (by the delegate told of it)
        /// waits for that one, which never waits for it: both run, in the order they were added.
        @Test func aBarrierBlockAddedWhileAnotherWasBeingAddedWaitsForIt() async {
            final class BarrierAdding: ConditionalOperationQueueDelegate {
                let hasAdded = Locked(false)
                let order = Recorder()
                func operationQueue(
                    _ queue: ConditionalOperationQueue, willAdd operation: Foundation.Operation
                ) {
                    guard !hasAdded.withLock({ $0 }) else { return }
                    hasAdded.withLock { $0 = true }
                    queue.addBarrierBlock { [order] in order.record("second") }
                }
            }
            let queue = ConditionalOperationQueue()
            let delegate = BarrierAdding()
            queue.delegate = delegate
            queue.addBarrierBlock { delegate.order.record("first") }
            let last = ClosureOperation<Void> { operation in
                delegate.order.record("last")
                operation.finish()
            }
            let done = completionLatch([last])
            queue.addOperation(last)
            #expect(await done.wait(seconds: 10), "neither barrier waits for the other")
            #expect(delegate.order.all == ["first", "second", "last"])
        }

        @Test func S3_conditionDependenciesAreAskedOnceAndAddedToTheSameQueue() async {
            let queue = ConditionalOperationQueue()
            let delegate = RecordingDelegate()
            queue.delegate = delegate
            let condition = S3ConditionDependencyTests.NeedsSetup()
            condition.setup.name = "setup"
            let operation = Self.named(ProbeOperation(), "guarded")
            operation.addCondition(condition)
            let done = completionLatch([operation])
            queue.addOperation(operation)
            #expect(await done.wait())
            #expect(condition.asked.current == 1)
            #expect(delegate.added.all == ["guarded", "setup"])
            #expect(operation.executions.current == 1)
        }

        @Test func S10_producedOperationsGoToTheProducersQueue() async {
            let queue = ConditionalOperationQueue()
            let delegate = RecordingDelegate()
            queue.delegate = delegate
            let produced = Self.named(BlockOperation {}, "produced")
            let producedDone = completionLatch([produced])
            let producer = Self.named(ProbeOperation(.never), "producer")
            queue.addOperation(producer)
            #expect(await producer.executing.wait())
            producer.produceOperation(produced)
            #expect(await producedDone.wait())
            producer.finish()
            #expect(delegate.added.all == ["producer", "produced"])
        }

        @Test func S9_aDependencyCycleFinishesEveryOperationOfItWithDependencyCycle() async {
            let queue = ConditionalOperationQueue()
            let a = ProbeOperation()
            let b = ProbeOperation()
            let c = ProbeOperation()
            let tail = ProbeOperation()  // depends on the cycle, is not part of it
            a.addDependency(c)
            b.addDependency(a)
            c.addDependency(b)
            tail.addDependency(c)
            let done = completionLatch([a, b, c])
            let tailDone = completionLatch([tail])
            queue.add([a, b, tail, c])
            #expect(await done.wait())
            for operation in [a, b, c] {
                #expect(operation.executions.current == 0)
                #expect(operation.errors.first as? OperationError == .dependencyCycle)
                #expect(!operation.isCancelled)
            }
            #expect(await tailDone.wait())
            #expect(tail.errors.isEmpty, "outside the cycle: it runs once the cycle finished")
            // Each names the cycle, following its dependencies back to itself.
            let names = { (operations: [ConditionalOperation]) in operations.map(\.diagnosticName) }
            for (operation, cycle) in [(a, [a, c, b]), (b, [b, a, c]), (c, [c, b, a])] {
                guard case .cycleBroken(let named) = operation.diagnosis.reason else {
                    Issue.record("not named: \(operation.diagnosis)")
                    continue
                }
                #expect(named == names(cycle))
            }
            let described = a.diagnosis.reason.description
            #expect(described.hasPrefix("finished without executing: part of the dependency cycle"))
            #expect(tail.diagnosis.reason.description == "finished")
        }

        @Test func aChainOfTenThousandRunsInOrder() async {
            let queue = ConditionalOperationQueue()
            let order = Recorder()
            let operations = (0..<10_000).map { index in
                let operation = ProbeOperation()
                operation.addObserver(BlockObserver(didStart: { _ in order.record("\(index)") }))
                return operation
            }
            for (earlier, later) in zip(operations, operations.dropFirst()) { later.addDependency(earlier) }
            let done = completionLatch(operations)
            queue.add(operations)
            #expect(await done.wait(seconds: 60), "\(done.remaining) never finished")
            #expect(order.all == (0..<10_000).map { "\($0)" })
            #expect(queue.operationCount <= 1, "waiting operations stay out of Foundation's queue")
        }

        @Test func aChainOfAHundredThousandIsBuiltRunAndReleasedWithoutOverflowingTheStack() async {
            weak var first: ProbeOperation?
            do {
                let queue = ConditionalOperationQueue()
                var operations = (0..<100_000).map { _ in ProbeOperation() }
                first = operations.first
                for index in operations.indices.dropFirst() {
                    operations[index].addDependency(operations[index - 1])
                }
                let last = operations[operations.count - 1]
                let done = completionLatch([last])
                queue.add(operations)
                operations = []
                #expect(await done.wait(seconds: 120))
            }
            // Foundation releases the last operation on one of its threads, and with it the chain.
            await waitUntil(seconds: 60) { first == nil }
            #expect(first == nil)
        }

        @Test func suspendingHoldsEveryOperationAndCancelAllReachesHeldOnes() async {
            let queue = ConditionalOperationQueue()
            queue.isSuspended = true
            let gate = ProbeOperation(.never)
            let held = ProbeOperation()
            held.addDependency(gate)
            let ready = ProbeOperation()
            let done = completionLatch([held, ready])
            queue.add([gate, held, ready])
            #expect(queue.unfinishedOperationCount == 3)
            #expect(ready.executions.current == 0)
            queue.cancelAllOperations()
            #expect(held.isCancelled && ready.isCancelled && gate.isCancelled)
            queue.isSuspended = false
            #expect(await done.wait())
            #expect(held.executions.current == 0 && ready.executions.current == 0)
        }

        @Test func aSerialQueueRunsOneAtATimeMixingPlainAndConditionalOperations() async {
            let queue = ConditionalOperationQueue()
            queue.maxConcurrentOperationCount = 1
            let occupancy = S7MutualExclusivityTests.Occupancy()
            var operations: [Foundation.Operation] = []
            for index in 0..<200 {
                if index.isMultiple(of: 2) {
                    operations.append(
                        S7MutualExclusivityTests.ExclusiveOperation([], occupancies: [occupancy]))
                } else {
                    operations.append(
                        BlockOperation {
                            occupancy.enter()
                            occupancy.leave()
                        })
                }
            }
            let done = completionLatch(operations)
            queue.add(operations)
            #expect(await done.wait())
            #expect(occupancy.peak == 1)
        }

        @Test func addOperationsWaitUntilFinishedReallyWaits() async {
            let queue = ConditionalOperationQueue()
            let gate = ProbeOperation(.finishLater)
            let waiting = ProbeOperation()
            waiting.addCondition(LaterCondition())
            waiting.addDependency(gate)
            let returned = Latch()
            let sawFinished = Locked(false)
            DispatchQueue.global().async {
                queue.addOperations([gate, waiting], waitUntilFinished: true)
                sawFinished.withLock { $0 = waiting.isFinished && gate.isFinished }
                returned.countDown()
            }
            #expect(await returned.wait())
            #expect(sawFinished.withLock { $0 })
        }

        @Test func waitUntilAllOperationsAreFinishedWaitsForHeldOperations() async throws {
            let queue = ConditionalOperationQueue()
            let condition = ManualCondition()
            let held = ProbeOperation()
            held.addCondition(condition)
            queue.addOperation(held)
            try await condition.waitUntilEvaluated(timeout: .seconds(20))
            let returned = Latch()
            DispatchQueue.global().async {
                queue.waitUntilAllOperationsAreFinished()
                returned.countDown()
            }
            #expect(held.state == .evaluatingConditions)
            condition.answer(.satisfied)
            #expect(await returned.wait())
            #expect(held.isFinished)
        }

        @Test func aBarrierWaitsForHeldOperationsAndHoldsBackLaterOnes() async throws {
            let queue = ConditionalOperationQueue()
            let condition = ManualCondition()
            let earlier = ProbeOperation()
            earlier.addCondition(condition)
            queue.addOperation(earlier)
            try await condition.waitUntilEvaluated(timeout: .seconds(20))
            let barrierRan = Latch()
            let earlierFinishedFirst = Locked(false)
            queue.addBarrierBlock {
                earlierFinishedFirst.withLock { $0 = earlier.isFinished }
                barrierRan.countDown()
            }
            let later = ProbeOperation()
            let laterDone = completionLatch([later])
            queue.addOperation(later)
            #expect(later.executions.current == 0)
            condition.answer(.satisfied)
            #expect(await barrierRan.wait())
            #expect(await laterDone.wait())
            #expect(earlierFinishedFirst.withLock { $0 })
        }

        /// Foundation's own queue checks `isFinished` once `start()` returned: so does this one,
        /// for a plain operation that finishes without KVO, or its slot would never be given back.
        @Test func aPlainOperationThatFinishesWithoutTellingGivesItsSlotBack() async {
            final class SilentOperation: Foundation.Operation, @unchecked Sendable {
                private let done = Locked(false)  // state behind its own lock
                override var isFinished: Bool { done.withLock { $0 } }
                override func start() { done.withLock { $0 = true } }  // no KVO
            }
            let queue = ConditionalOperationQueue()
            queue.maxConcurrentOperationCount = 1
            queue.addOperation(SilentOperation())
            let after = Latch()
            queue.addOperation { after.countDown() }
            #expect(await after.wait())
        }

        /// A plain operation given a dependency while it waits for a slot is not started when
        /// its slot comes (Foundation's `start()` would trap): it waits for that dependency.
        @Test func aPlainOperationGivenADependencyWhileWaitingForASlotWaitsForIt() async {
            let queue = ConditionalOperationQueue()
            queue.maxConcurrentOperationCount = 1
            queue.isSuspended = true
            let order = Recorder()
            let waiting = BlockOperation { order.record("waiting") }
            let done = completionLatch([waiting])
            queue.addOperation(waiting)
            let late = BlockOperation { order.record("late dependency") }
            waiting.addDependency(late)
            queue.isSuspended = false
            OperationQueue().addOperation(late)
            #expect(await done.wait())
            #expect(order.all == ["late dependency", "waiting"])
        }

        @Test func dependenciesOnOtherQueuesAndAsynchronousPlainOperationsWork() async {
            final class AsyncPlainOperation: Foundation.Operation, @unchecked Sendable {
                // state behind `state`'s lock
                private let state = Locked((executing: false, finished: false))
                override var isAsynchronous: Bool { true }
                override var isExecuting: Bool { state.withLock { $0.executing } }
                override var isFinished: Bool { state.withLock { $0.finished } }
                override func start() {
                    state.withLock { $0.executing = true }
                    didChangeValue(forKey: "isExecuting")
                    DispatchQueue.global().async {
                        self.state.withLock { $0 = (false, true) }
                        self.didChangeValue(forKey: "isExecuting")
                        self.didChangeValue(forKey: "isFinished")
                    }
                }
            }
            let other = OperationQueue()
            let queue = ConditionalOperationQueue()
            let delegate = RecordingDelegate()
            queue.delegate = delegate
            let upstream = ProbeOperation(.finishLater)
            let plain = Self.named(AsyncPlainOperation(), "async plain")
            plain.addDependency(upstream)
            let operation = Self.named(ProbeOperation(), "dependent")
            operation.addDependency(plain)
            let done = completionLatch([operation])
            queue.add([plain, operation])
            other.addOperation(upstream)
            #expect(await done.wait())
            #expect(plain.isFinished)
            await waitUntil { delegate.finished.all.count == 2 }
            #expect(Set(delegate.finished.all) == ["async plain", "dependent"])
        }

        @Test func exclusiveOperationsOverTwoConditionalQueuesNeverOverlap() async {
            let category = "CQ.many"
            let occupancy = S7MutualExclusivityTests.Occupancy()
            let queues = (0..<2).map { _ in
                let queue = ConditionalOperationQueue()
                queue.maxConcurrentOperationCount = 4
                return queue
            }
            let operations = (0..<10_000).map { _ in
                S7MutualExclusivityTests.ExclusiveOperation([category], occupancies: [occupancy])
            }
            let done = completionLatch(operations)
            for (index, operation) in operations.enumerated() { queues[index % 2].addOperation(operation) }
            #expect(await done.wait(seconds: 60), "\(done.remaining) operations never finished")
            #expect(occupancy.peak == 1)
        }

        #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))  // exit tests: 6.2; no iOS
            @Test func S13_addingToTwoQueuesTraps() async {
                let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                    let operation = ConditionalOperation()
                    operation.name = "Twice"
                    let gate = BlockOperation {}
                    operation.addDependency(gate)
                    ConditionalOperationQueue().addOperation(operation)
                    ConditionalOperationQueue().addOperation(operation)
                }
                let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
                #expect(message.contains("ConditionalOperation 'Twice'"))
                #expect(message.contains("S13"))
            }
        #endif
    }
}
