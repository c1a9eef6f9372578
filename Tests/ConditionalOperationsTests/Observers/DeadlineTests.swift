import ConditionalOperations
import ConditionalOperationsTesting
import Foundation
import Testing

extension ConditionalOperationsTests {
    /// Deadlines cover the whole life: an operation stuck before it executes still ends, with
    /// `timedOut`, without executing (S4).
    @Suite struct DeadlineTests {
        static func queue(conditional: Bool) -> OperationQueue {
            conditional ? ConditionalOperationQueue() : OperationQueue()
        }

        @Test(arguments: [false, true])
        func aConditionThatNeverAnswersEndsAtTheDeadline(conditional: Bool) async {
            let operation = ProbeOperation()
            operation.addCondition(ManualCondition())
            operation.addDeadline(after: .seconds(0.05))
            let done = completionLatch([operation])
            Self.queue(conditional: conditional).addOperation(operation)
            #expect(await done.wait())
            #expect(operation.errors.first as? OperationError == .timedOut(0.05))
            #expect(operation.executions.current == 0)
        }

        @Test(arguments: [false, true])
        func aCategoryNeverGivenBackEndsAtTheDeadline(conditional: Bool) async {
            let category = "DeadlineTests.\(conditional)"
            let holder = ProbeOperation(.never)
            holder.addCondition(MutuallyExclusive(category: category))
            let waiter = ProbeOperation()
            waiter.addCondition(MutuallyExclusive(category: category))
            let queue = Self.queue(conditional: conditional)
            queue.addOperation(holder)
            #expect(await holder.executing.wait())
            waiter.addDeadline(after: .seconds(0.05))
            let done = completionLatch([waiter])
            queue.addOperation(waiter)
            #expect(await done.wait())
            #expect(waiter.errors.first as? OperationError == .timedOut(0.05))
            #expect(waiter.executions.current == 0)
            let holderDone = completionLatch([holder])
            holder.finish()
            #expect(await holderDone.wait())
        }

        @Test(arguments: [false, true])
        func aDependencyThatNeverFinishesEndsAtTheDeadline(conditional: Bool) async {
            let stuck = ProbeOperation(.never)
            let operation = ProbeOperation()
            operation.addDependency(stuck)
            operation.addDeadline(at: Date(timeIntervalSinceNow: 0.05))
            let done = completionLatch([operation])
            Self.queue(conditional: conditional).add([stuck, operation])
            #expect(await done.wait())
            #expect(operation.isCancelled)
            #expect(operation.errors.first.map { $0 is OperationError } == true)
            #expect(operation.executions.current == 0)
            stuck.cancel()
        }

        @Test func anOperationFinishedInTimeIsNotCancelledAndItsTimerIsDropped() async {
            weak var released: ProbeOperation?
            let finished = Latch()
            do {
                let operation = ProbeOperation()
                // Far off: the operation finishes long before, however busy the machine, and the
                // timer still pending must hold nothing of it (checked for 10 s, well before it fires).
                operation.addDeadline(after: .seconds(60))
                let done = completionLatch([operation])
                OperationQueue().addOperation(operation)
                #expect(await done.wait())
                #expect(!operation.isCancelled && operation.errors.isEmpty)
                released = operation
                finished.countDown()
            }
            #expect(await finished.wait())
            await waitUntil(seconds: 10) { released == nil }
            #expect(released == nil, "S12: the deadline's timer keeps nothing once the operation finished")
        }
    }
}
