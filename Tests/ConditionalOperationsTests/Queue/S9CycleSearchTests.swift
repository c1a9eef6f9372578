import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests {
    /// S9 on a `ConditionalOperationQueue`: the search for a dependency cycle at each admission
    /// costs what the smaller side of the operation added costs (the operations it waits for, or
    /// those waiting for it), not the whole unfinished graph (issue 34, finding 7).
    @Suite struct S9CycleSearchTests {
        /// An unfinished chain of `count` operations, the first waiting for `gate`.
        static func chain(_ count: Int, after gate: Foundation.Operation) -> [ProbeOperation] {
            var chain: [ProbeOperation] = []
            for _ in 0..<count {
                let link = ProbeOperation()
                link.addDependency(chain.last ?? gate)
                chain.append(link)
            }
            return chain
        }

        @Test func S9_addingOperationsThatDependOnALongChainAndThatAnEarlierOneAwaitsSearchesLittle() async {
            let queue = ConditionalOperationQueue()
            let gate = BlockOperation {}
            let count = 300
            let chain = Self.chain(count, after: gate)
            queue.add(chain)
            let added = (0..<count).map { _ in
                let operation = ProbeOperation()
                operation.addDependency(chain[count - 1])
                return operation
            }
            let earlier = ProbeOperation()
            for operation in added { earlier.addDependency(operation) }
            queue.addOperation(earlier)
            let before = queue.cycleSearchVisits
            for operation in added { queue.addOperation(operation) }
            let visits = queue.cycleSearchVisits - before
            // Searching the whole chain from each made it count × count (90,000 here).
            #expect(visits <= 8 * count, "operations visited for \(count) admissions: \(visits)")
            let done = completionLatch([earlier])
            queue.addOperation(gate)
            #expect(await done.wait())
            #expect(
                (chain + added + [earlier]).allSatisfy { $0.executions.current == 1 && $0.errors.isEmpty })
        }

        /// An operation that finished within the `start()` its queue's drainer gave it stays in
        /// the graph until the drainer's next trip, after its waiters were resumed. A cancelled one
        /// finishes before its dependency does: an operation one of its waiters adds, there and
        /// then, finds no cycle through it.
        @Test func S9_noCycleRunsThroughAnOperationThatFinishedBeforeItsQueueForgotIt() async {
            let queue = ConditionalOperationQueue()
            let last = ProbeOperation()
            let first = ProbeOperation()
            let cancelled = ProbeOperation()
            let middle = ProbeOperation()
            // First among its waiters: before the wake of `middle`, which would let it finish.
            cancelled.whenFinished { queue.addOperation(last) }
            first.addDependency(last)
            queue.addOperation(first)
            cancelled.addDependency(first)
            queue.addOperation(cancelled)
            middle.addDependency(cancelled)
            queue.addOperation(middle)
            last.addDependency(middle)
            let done = completionLatch([middle, last, first])
            cancelled.cancel()
            #expect(await done.wait())
            // The cancelled one waited for `first`, which waits for `last`, which waits for
            // `middle`, which waited for the cancelled one: no longer, once it finished.
            #expect([middle, last, first].allSatisfy { $0.executions.current == 1 && $0.errors.isEmpty })
        }

        @Test func S9_addingOperationsThatALongChainAwaitsSearchesLittle() async {
            let queue = ConditionalOperationQueue()
            let gate = BlockOperation {}
            let held = ProbeOperation()
            held.addDependency(gate)
            queue.addOperation(held)
            let count = 300
            let added = (0..<count).map { _ in
                let operation = ProbeOperation()
                operation.addDependency(held)
                return operation
            }
            // A chain of dependents above them, added first: its bottom awaits every one of them.
            let above = Self.chain(count, after: added[0])
            for operation in added.dropFirst() { above[0].addDependency(operation) }
            queue.add(above)
            let before = queue.cycleSearchVisits
            for operation in added { queue.addOperation(operation) }
            let visits = queue.cycleSearchVisits - before
            #expect(visits <= 8 * count, "operations visited for \(count) admissions: \(visits)")
            let done = completionLatch([above[count - 1]])
            queue.addOperation(gate)
            #expect(await done.wait())
            #expect(([held] + added + above).allSatisfy { $0.executions.current == 1 && $0.errors.isEmpty })
        }

        /// The cycle closed by an operation with long unfinished chains on both sides is found,
        /// and its operations alone finish with `dependencyCycle`.
        @Test func S9_aCycleClosedBesideLongChainsOnBothSidesIsReportedOnEachOfItsOperations() async {
            let queue = ConditionalOperationQueue()
            let gate = BlockOperation {}
            let below = Self.chain(50, after: gate)  // not in the cycle: it waits for the gate
            let closing = ProbeOperation()
            // Short: Foundation's `addDependency` locks the dependency, then the operation, so a
            // long cycle is a long cycle of lock orders, which ThreadSanitizer remarks on.
            let cycle = Self.chain(3, after: closing)
            closing.addDependency(below[49])
            closing.addDependency(cycle[2])
            let above = Self.chain(50, after: cycle[2])  // depends on the cycle, is not part of it
            let cycleDone = completionLatch(cycle + [closing])
            let rest = completionLatch(above + below)
            queue.add(cycle + above + below)
            queue.addOperation(closing)
            #expect(await cycleDone.wait())
            for operation in cycle + [closing] {
                #expect(operation.executions.current == 0)
                #expect(operation.errors.first as? OperationError == .dependencyCycle)
            }
            queue.addOperation(gate)
            #expect(await rest.wait())
            #expect((above + below).allSatisfy { $0.executions.current == 1 && $0.errors.isEmpty })
        }
    }
}
