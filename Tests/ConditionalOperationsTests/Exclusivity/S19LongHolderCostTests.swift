import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests {
    /// S7, S19: while one long operation holds a unit of a category with a limit, the short ones
    /// taking turns with the other units cost the same each, however many passed before them
    /// (issue 34, finding 7): the line keeps no trace of the requests that left it, and finding the
    /// next holder walks no more than the limit.
    @Suite struct S19LongHolderCostTests {
        typealias RecordingProbe = S19LimitTests.RecordingProbe

        @Test func S19_shortOperationsPassingALongHolderLeaveNoWorkBehind() async {
            let category = "S19.longHolder.\(UUID())"
            let long = S19LimitTests.holder(category, limit: 2, label: "long")
            let queue = ConditionalOperationQueue()
            queue.addOperation(long)
            #expect(await long.executing.wait())
            let count = 400
            let shorts = (0..<count).map { _ in
                let operation = ConditionalOperation()
                operation.addCondition(MutuallyExclusive(category: category, limit: 2))
                return operation
            }
            let done = completionLatch(shorts)
            queue.add(shorts)
            #expect(await done.wait())
            let work = ExclusivityController.shared.lineWork(for: category)
            // Each short request is appended, admitted, checked and withdrawn: a few visits each.
            // Walking the requests that left the line made it about count² / 2 (80,000 here).
            #expect(
                work.visited <= 8 * count, "entries visited for \(count) short operations: \(work.visited)")
            #expect(work.stored <= 2, "the long holder's request alone is left in line, not \(work.stored)")
            let finished = completionLatch([long])
            long.finish()
            #expect(await finished.wait())
        }

        /// Withdrawn requests in the middle of the line (cancelled waiters) neither change the
        /// order of the others (first come, first served) nor stay in the line.
        @Test func S19_waitersCancelledInTheMiddleOfTheLineLeaveTheOrderOfTheOthers() async {
            let category = "S19.cancelledWaiters.\(UUID())"
            let order = Recorder()
            let holders = (0..<2).map {
                S19LimitTests.holder(category, limit: 2, label: "h\($0)", order: order)
            }
            let queue = ConditionalOperationQueue()
            queue.add(holders)
            for holder in holders { #expect(await holder.executing.wait()) }
            let waiters = (0..<200).map {
                S19LimitTests.holder(category, limit: 2, label: "w\($0)", order: order)
            }
            for waiter in waiters { queue.addOperation(waiter) }  // one at a time: this is their order
            await waitUntil { ExclusivityController.shared.requestCount(for: category) == 202 }
            // Cancel all but every tenth: more gaps than requests, so the line is compacted.
            let kept = waiters.enumerated().filter { $0.offset.isMultiple(of: 10) }.map(\.element)
            let cancelled = waiters.enumerated().filter { !$0.offset.isMultiple(of: 10) }.map(\.element)
            let cancelledDone = completionLatch(cancelled)
            for waiter in cancelled { waiter.cancel() }
            #expect(await cancelledDone.wait())
            #expect(ExclusivityController.shared.requestCount(for: category) == 2 + kept.count)
            // The gaps they leave are swept out once they outnumber those waiting (and exceed 32).
            let gaps = ExclusivityController.shared.lineWork(for: category).stored - (2 + kept.count)
            #expect(gaps <= max(32, kept.count), "\(gaps) withdrawn requests kept in line")
            var running = holders
            for waiter in kept {
                running.removeFirst().finish()
                #expect(await waiter.executing.wait())
                running.append(waiter)
            }
            let finished = completionLatch(running)
            for operation in running { operation.finish() }
            #expect(await finished.wait())
            let executed = order.all.filter { $0.hasPrefix("w") }
            #expect(executed == kept.map(\.label), "first come, first served among those left")
            #expect(!ExclusivityController.shared.isTracking(category))
        }
    }
}
