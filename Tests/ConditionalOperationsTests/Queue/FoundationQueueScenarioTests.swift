import Foundation
import Testing

@testable import ConditionalOperations

/// The scenarios of swift-corelibs-foundation's `TestOperationQueue`, run against a
/// `ConditionalOperationQueue`: the `OperationQueue` behaviour its scheduler must keep, with plain
/// operations (block, synchronous and asynchronous subclasses) and ``ConditionalOperation``s mixed.
/// Counts are read from `unfinishedOperationCount`, never from `operationCount` or `operations`.
/// `OperationQueue.current` (Foundation's `CurrentQueue…` scenarios) is not part of the contract.
/// Skipped: `OperationQueue.main`, `underlyingQueue`, operations started without a queue, and the
/// custom `isReady` scenario (Foundation skips it as flaky).
extension ConditionalOperationsTests {
    @Suite(.serialized) struct FoundationQueueScenarioTests {
        typealias Occupancy = S7MutualExclusivityTests.Occupancy

        /// What gated operations share: `held` keeps them executing until the test calls `open()`
        /// as often as `holds`; `occupancy` tracks how many execute at once; every start counts
        /// `started` and `overflow` (which waits for one start more) down.
        final class Gate: @unchecked Sendable {  // stored state: lets of thread-safe types
            let held = DispatchGroup()
            let occupancy = Occupancy()
            let started: Latch
            let overflow: Latch

            init(holds: Int = 0, starts: Int = 1) {
                for _ in 0..<holds { held.enter() }
                started = Latch(count: starts)
                overflow = Latch(count: starts + 1)
            }

            func open() { held.leave() }

            /// Enters the occupancy now; leaves it and calls `finish` once the gate is open, from
            /// another thread.
            func pass(_ finish: @escaping @Sendable () -> Void) {
                occupancy.enter()
                started.countDown()
                overflow.countDown()
                held.notify(queue: .global()) {
                    self.occupancy.leave()
                    finish()
                }
            }
        }

        /// A ``ConditionalOperation`` that executes until its gate opens.
        final class GatedOperation: ConditionalOperation, @unchecked Sendable {  // stored state: a let
            let gate: Gate
            init(_ gate: Gate) {
                self.gate = gate
                super.init()
            }
            override func execute() { gate.pass { self.finish() } }
        }

        /// A plain asynchronous `Operation` (`isAsynchronous`, its own `isExecuting` and
        /// `isFinished`) that executes until its gate opens.
        final class GatedPlainOperation: Foundation.Operation, @unchecked Sendable {
            // mutable state: behind `state`'s lock
            private let state = Locked((executing: false, finished: false))
            let gate: Gate
            init(_ gate: Gate) { self.gate = gate }

            override var isAsynchronous: Bool { true }
            override var isExecuting: Bool { state.withLock { $0.executing } }
            override var isFinished: Bool { state.withLock { $0.finished } }

            override func start() {
                guard !isCancelled else { return complete() }
                willChangeValue(forKey: "isExecuting")
                state.withLock { $0.executing = true }
                didChangeValue(forKey: "isExecuting")
                gate.pass { self.complete() }
            }

            private func complete() {
                willChangeValue(forKey: "isExecuting")
                willChangeValue(forKey: "isFinished")
                state.withLock { $0 = (false, true) }
                didChangeValue(forKey: "isExecuting")
                didChangeValue(forKey: "isFinished")
            }
        }

        /// A queue that says when it is deallocated.
        final class ObservedQueue: ConditionalOperationQueue, @unchecked Sendable {  // stored state: a let
            let freed = Latch()
            deinit { freed.countDown() }
        }

        /// A `BlockOperation` recording `label` into `order`.
        static func block(_ label: String, into order: Recorder) -> BlockOperation {
            BlockOperation { order.record(label) }
        }

        /// A ``ConditionalOperation`` recording `label` into `order` and finishing.
        static func step(_ label: String, into order: Recorder) -> Foundation.Operation {
            ConditionalOperationQueueBatchTests.RecordingOperation(name: label, into: order)
        }

        /// Runs `body` (Foundation's waits are unavailable from async code) on a dispatch thread;
        /// the latch is released once it returned.
        static func blockingCall(_ body: @escaping @Sendable () -> Void) -> Latch {
            let returned = Latch()
            DispatchQueue.global().async {
                body()
                returned.countDown()
            }
            return returned
        }

        /// Whether `body`, run by ``blockingCall(_:)``, returned within `seconds`.
        static func returns(within seconds: Double = 20, _ body: @escaping @Sendable () -> Void) async -> Bool
        {
            await blockingCall(body).wait(seconds: seconds)
        }

        static func addWithoutWaiting(_ operations: [Foundation.Operation], to queue: OperationQueue) {
            ConditionalOperationQueueBatchTests.addWithoutWaiting(operations, to: queue)
        }

        /// The order in which a suspended serial queue runs operations of `priorities`, plain and
        /// conditional by turns, added one at a time, once resumed.
        static func orderOnceResumed(_ priorities: [Foundation.Operation.QueuePriority]) async -> [String] {
            let queue = ConditionalOperationQueue()
            queue.maxConcurrentOperationCount = 1
            queue.isSuspended = true
            let order = Recorder()
            for (index, priority) in priorities.enumerated() {
                let label = "\(index + 1)"
                let operation: Foundation.Operation =
                    index.isMultiple(of: 2) ? block(label, into: order) : step(label, into: order)
                operation.queuePriority = priority
                queue.addOperation(operation)
            }
            queue.isSuspended = false
            #expect(await returns { queue.waitUntilAllOperationsAreFinished() })
            return order.all
        }

        // MARK: Counting, order and priority

        /// test_OperationCount
        @Test func unfinishedOperationCountCountsOperationsUntilTheyFinish() async {
            let queue = ConditionalOperationQueue()
            let gate = Gate(holds: 1)
            queue.addOperation(GatedOperation(gate))
            #expect(await gate.started.wait())
            #expect(queue.unfinishedOperationCount == 1)
            gate.open()
            #expect(await Self.returns { queue.waitUntilAllOperationsAreFinished() })
            #expect(queue.unfinishedOperationCount == 0)

            queue.isSuspended = true
            let order = Recorder()
            queue.addOperation(Self.block("plain", into: order))
            queue.addOperation(Self.step("conditional", into: order))
            #expect(queue.unfinishedOperationCount == 2)
            queue.isSuspended = false
            #expect(await Self.returns { queue.waitUntilAllOperationsAreFinished() })
            #expect(queue.unfinishedOperationCount == 0)
            #expect(Set(order.all) == ["plain", "conditional"])
        }

        /// test_OperationPriorities
        @Test func addOperationsOnASerialQueueRunsHigherPriorityFirst() async {
            let queue = ConditionalOperationQueue()
            queue.maxConcurrentOperationCount = 1
            let order = Recorder()
            let operations = [
                Self.block("1", into: order), Self.step("2", into: order),
                Self.block("3", into: order), Self.step("4", into: order),
            ]
            let priorities: [Foundation.Operation.QueuePriority] = [.normal, .low, .veryHigh, .veryLow]
            for (operation, priority) in zip(operations, priorities) { operation.queuePriority = priority }
            #expect(await Self.returns { queue.addOperations(operations, waitUntilFinished: true) })
            #expect(order.all == ["3", "1", "2", "4"])
        }

        /// test_OperationOrder
        @Test func operationsOfEqualPriorityRunInTheOrderAdded() async {
            #expect(
                await Self.orderOnceResumed(Array(repeating: .normal, count: 5)) == ["1", "2", "3", "4", "5"])
        }

        /// test_OperationOrder2
        @Test func higherQueuePriorityRunsFirstOnceResumed() async {
            let order = await Self.orderOnceResumed([.veryLow, .low, .normal, .high, .veryHigh])
            #expect(order == ["5", "4", "3", "2", "1"])
        }

        // MARK: Cancelling

        /// test_CancelOneOperation
        @Test func cancellingOnePendingOperationSkipsIt() async {
            let queue = ConditionalOperationQueue()
            queue.maxConcurrentOperationCount = 1
            let gate = Gate(holds: 1)
            let order = Recorder()
            let rest = (1..<5).map { index -> Foundation.Operation in
                index.isMultiple(of: 2)
                    ? Self.block("\(index)", into: order) : Self.step("\(index)", into: order)
            }
            Self.addWithoutWaiting([GatedOperation(gate)] + rest, to: queue)
            #expect(await gate.started.wait())
            rest[1].cancel()
            gate.open()
            #expect(await Self.returns { queue.waitUntilAllOperationsAreFinished() })
            #expect(order.all == ["1", "3", "4"])
        }

        /// test_CancelOperationsOfSpecificQueuePriority
        @Test func cancellingTheOperationsOfOnePriorityLeavesTheOthersToRun() async {
            let queue = ConditionalOperationQueue()
            queue.maxConcurrentOperationCount = 1
            let gate = Gate(holds: 1)
            let order = Recorder()
            let high = [GatedOperation(gate), Self.block("high", into: order)]
            let normal = [
                Self.step("normal 1", into: order), Self.block("normal 2", into: order),
                Self.step("normal 3", into: order),
            ]
            for operation in high { operation.queuePriority = .high }
            Self.addWithoutWaiting(high + normal, to: queue)
            #expect(await gate.started.wait())
            for operation in high + normal where operation.queuePriority == .normal { operation.cancel() }
            gate.open()
            #expect(await Self.returns { queue.waitUntilAllOperationsAreFinished() })
            #expect(order.all == ["high"])
        }

        /// test_CurrentQueueOnBackgroundQueueWithSelfCancel, without `OperationQueue.current`.
        @Test func cancelAllOperationsCancelsPendingOperations() async {
            let queue = ConditionalOperationQueue()
            queue.maxConcurrentOperationCount = 1
            queue.isSuspended = true
            let order = Recorder()
            queue.addOperation {
                order.record("canceller")
                queue.cancelAllOperations()  // from inside an operation of the queue
            }
            let plain = Self.block("plain", into: order)
            let conditional = Self.step("conditional", into: order)
            let dependent = Self.step("dependent", into: order)  // held back by its dependency
            dependent.addDependency(plain)
            queue.add([plain, conditional, dependent])
            queue.isSuspended = false
            #expect(await Self.returns { queue.waitUntilAllOperationsAreFinished() })
            #expect(order.all == ["canceller"])
            for operation in [plain, conditional, dependent] {
                #expect(operation.isCancelled && operation.isFinished)
            }
        }

        /// test_CancelWhileSuspended
        @Test func cancellingWhileSuspendedFinishesWithoutRunning() async {
            let queue = ConditionalOperationQueue()
            queue.isSuspended = true
            let order = Recorder()
            let operations = [Self.block("plain", into: order), Self.step("conditional", into: order)]
            queue.add(operations)
            for operation in operations { operation.cancel() }
            queue.isSuspended = false
            #expect(await Self.returns { queue.waitUntilAllOperationsAreFinished() })
            for operation in operations {
                #expect(operation.isCancelled && !operation.isExecuting && operation.isFinished)
            }
            #expect(order.all.isEmpty)
        }

        // MARK: Suspending

        /// test_isSuspended (resumed from another thread), without `underlyingQueue`.
        @Test func suspendedQueueStartsNothingUntilResumed() async {
            let queue = ConditionalOperationQueue()
            queue.isSuspended = true
            let anyStarted = Latch()
            let ran = Recorder()
            let operations = [
                BlockOperation {
                    ran.record("plain")
                    anyStarted.countDown()
                },
                ClosureOperation<Void> { operation in
                    ran.record("conditional")
                    anyStarted.countDown()
                    operation.finish(returning: ())
                },
            ]
            let done = completionLatch(operations)
            queue.add(operations)
            #expect(!(await anyStarted.wait(seconds: 0.5)), "nothing starts while suspended")
            #expect(queue.isSuspended && ran.all.isEmpty)
            DispatchQueue.global().async { queue.isSuspended = false }
            #expect(await done.wait())
            #expect(Set(ran.all) == ["plain", "conditional"])
        }

        // MARK: Dependencies and barriers

        /// test_ExecutionOrder, with `addOperation(_:)` taking a block.
        @Test func dependencyRunsBeforeItsDependentAndAddedBlocksRun() async {
            let queue = ConditionalOperationQueue()
            let order = Recorder()
            let conditionalDependent = Self.step("conditional dependent", into: order)
            let plainDependency = Self.block("plain dependency", into: order)
            conditionalDependent.addDependency(plainDependency)
            let plainDependent = Self.block("plain dependent", into: order)
            let conditionalDependency = Self.step("conditional dependency", into: order)
            plainDependent.addDependency(conditionalDependency)
            let operations = [conditionalDependent, plainDependency, plainDependent, conditionalDependency]
            let done = completionLatch(operations)
            Self.addWithoutWaiting(operations, to: queue)
            let blockRan = Latch()
            queue.addOperation { blockRan.countDown() }
            #expect(await done.wait())
            #expect(await blockRan.wait())
            let all = order.all
            let position = { (label: String) in all.firstIndex(of: label) ?? -1 }
            #expect(position("plain dependency") < position("conditional dependent"))
            #expect(position("conditional dependency") < position("plain dependent"))
        }

        /// test_CancelDependency
        @Test func cancelledDependencyLetsItsDependentRun() async {
            let queue = ConditionalOperationQueue()
            queue.maxConcurrentOperationCount = 1
            let order = Recorder()
            let cancelledConditional = Self.step("cancelled conditional", into: order)
            let plainDependent = Self.block("plain dependent", into: order)
            plainDependent.addDependency(cancelledConditional)
            let cancelledPlain = Self.block("cancelled plain", into: order)
            let conditionalDependent = Self.step("conditional dependent", into: order)
            conditionalDependent.addDependency(cancelledPlain)
            cancelledConditional.cancel()
            cancelledPlain.cancel()
            let done = completionLatch([plainDependent, conditionalDependent])
            queue.add([cancelledConditional, plainDependent, cancelledPlain, conditionalDependent])
            #expect(await done.wait())
            #expect(order.all == ["plain dependent", "conditional dependent"])
        }

        /// test_CrossQueueDependency
        @Test func dependencyOnAnotherQueuesOperationIsHonoured() async {
            let queue = ConditionalOperationQueue()
            let other = ConditionalOperationQueue()
            let gate = Gate(holds: 1)
            let upstream = GatedPlainOperation(gate)
            let order = Recorder()
            let dependents = [Self.block("plain", into: order), Self.step("conditional", into: order)]
            for dependent in dependents { dependent.addDependency(upstream) }
            let done = completionLatch(dependents)
            queue.add(dependents)
            other.addOperation(upstream)
            #expect(await gate.started.wait())
            #expect(order.all.isEmpty, "the dependency on the other queue is still executing")
            gate.open()
            #expect(await done.wait())
            #expect(Set(order.all) == ["plain", "conditional"])
        }

        /// test_DependencyCycleBreak: a cycle of plain operations is Foundation's to break (a cycle
        /// of ``ConditionalOperation``s finishes with `dependencyCycle` instead, S9).
        @Test func cancellingAnOperationBreaksADependencyCycle() async {
            let queue = ConditionalOperationQueue()
            let order = Recorder()
            let third = Self.block("third", into: order)
            let second = BlockOperation { [weak third] in
                order.record(third?.isCancelled == true ? "second" : "second too early")
            }
            let first = BlockOperation { [weak second] in
                order.record(second?.isFinished == true ? "first" : "first too early")
            }
            first.addDependency(second)
            second.addDependency(third)
            third.addDependency(first)
            let done = completionLatch([first, second, third])
            queue.add([first, second, third])
            #expect(queue.unfinishedOperationCount == 3)
            third.cancel()
            #expect(await done.wait())
            #expect(order.all == ["second", "first"])
        }
    }
}
