import ConditionalOperationsTesting
import Foundation
import Testing

@testable import ConditionalOperations

/// `addOperations(_:waitUntilFinished:)` on a ConditionalOperationQueue hands the operations that
/// are ready at once to Foundation in batches: everything still runs, held operations still wait,
/// and a queue with a concurrency limit keeps Foundation's priority order.
extension ConditionalOperationsTests {
    @Suite struct ConditionalOperationQueueBatchTests {
        /// Every kind of operation a batch can hold, more of them than one hand-over batch takes.
        @Test func addOperationsRunsEveryOperationOfALargeMixedBatch() async {
            let queue = ConditionalOperationQueue()
            let delegate = ConditionalOperationQueueTests.RecordingDelegate()
            queue.delegate = delegate
            var operations: [Foundation.Operation] = []
            var probes: [(ProbeOperation, executes: Bool)] = []
            for index in 0..<3_000 {
                let probe = ProbeOperation()
                var executes = true
                switch index % 7 {
                case 0:
                    operations.append(BlockOperation {})
                    continue
                case 1: probe.addCondition(BlockCondition { true })
                case 2: probe.addCondition(LaterCondition())
                case 3: probe.addDependency(operations[index - 1])
                case 4:
                    probe.cancel()
                    executes = false
                case 5:
                    probe.finish()
                    executes = false
                default: break
                }
                operations.append(probe)
                probes.append((probe, executes))
            }
            let done = completionLatch(operations)
            Self.addWithoutWaiting(operations, to: queue)
            #expect(await done.wait())
            #expect(delegate.added.all.count == operations.count)
            for (probe, executes) in probes {
                #expect(probe.executions.current == (executes ? 1 : 0))
            }
            await waitUntil { queue.unfinishedOperationCount == 0 }
            #expect(queue.unfinishedOperationCount == 0)
        }

        /// Foundation adds a batch before it schedules any of it, so on a serial queue the
        /// higher priority runs first whatever its place in the batch. Handing the operations over
        /// one at a time started the first one before the second was even added.
        @Test func addOperationsOnALimitedQueueKeepsFoundationsPriorityOrder() async {
            for queue in [OperationQueue(), ConditionalOperationQueue()] {
                queue.maxConcurrentOperationCount = 1
                let order = Recorder()
                let low = RecordingOperation(name: "low", into: order)
                low.queuePriority = .low
                let high = RecordingOperation(name: "high", into: order)
                high.queuePriority = .high
                let done = completionLatch([low, high])
                Self.addWithoutWaiting([low, high], to: queue)
                #expect(await done.wait())
                #expect(order.all == ["high", "low"], "\(type(of: queue))")
            }
        }

        /// Held operations of a batch are handed over on their own once ready; the ones ready at
        /// once do not wait for them.
        @Test func aHeldOperationInABatchDoesNotHoldBackTheReadyOnes() async {
            let queue = ConditionalOperationQueue()
            let condition = ManualCondition()
            let held = ProbeOperation()
            held.addCondition(condition)
            let ready = ProbeOperation()
            let readyDone = completionLatch([ready])
            Self.addWithoutWaiting([held, ready], to: queue)
            #expect(await readyDone.wait())
            #expect(held.state == .evaluatingConditions)
            let heldDone = completionLatch([held])
            condition.answer(.satisfied)
            #expect(await heldDone.wait())
            #expect(held.executions.current == 1)
        }

        /// A ready operation is handed over once the next one is held back, not only once the whole
        /// call was admitted: here it executes while the delegate hears of the third operation.
        @Test func aReadyOperationStartsWhileTheRestOfTheBatchIsStillBeingAdded() async {
            final class WaitingDelegate: ConditionalOperationQueueDelegate {
                let first: ProbeOperation
                let last: Foundation.Operation
                let sawFirstExecute = Locked(false)
                init(first: ProbeOperation, last: Foundation.Operation) {
                    self.first = first
                    self.last = last
                }
                func operationQueue(
                    _ queue: ConditionalOperationQueue, willAdd operation: Foundation.Operation
                ) {
                    guard operation === last else { return }
                    let executed = DispatchSemaphore(value: 0)
                    first.addObserver(BlockObserver(didFinish: { _, _ in executed.signal() }))
                    sawFirstExecute.withLock { $0 = executed.wait(timeout: .now() + 10) == .success }
                }
            }
            let queue = ConditionalOperationQueue()
            let first = ProbeOperation()
            let condition = ManualCondition()  // answered only at the end: held while the call runs
            let held = ProbeOperation()
            held.addCondition(condition)
            let last = ProbeOperation()
            let delegate = WaitingDelegate(first: first, last: last)
            queue.delegate = delegate
            let done = completionLatch([first, held, last])
            let added = Latch()
            DispatchQueue.global().async {
                Self.addWithoutWaiting([first, held, last], to: queue)
                added.countDown()
            }
            #expect(await added.wait())
            #expect(delegate.sawFirstExecute.withLock { $0 })
            condition.answer(.satisfied)
            #expect(await done.wait())
        }

        /// `addOperations(_:waitUntilFinished:)` is unavailable from async code on Linux.
        static func addWithoutWaiting(_ operations: [Foundation.Operation], to queue: OperationQueue) {
            queue.addOperations(operations, waitUntilFinished: false)
        }

        final class RecordingOperation: ConditionalOperation, @unchecked Sendable {
            // stored state: immutable
            let label: String
            let order: Recorder

            init(name: String, into order: Recorder) {
                label = name
                self.order = order
                super.init()
            }

            override func execute() {
                order.record(label)
                finish()
            }
        }
    }
}
