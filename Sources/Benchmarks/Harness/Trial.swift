import ConditionalOperations
import Foundation

/// One side of a comparison, run once through a fresh queue of the contender's kind.
///
/// The timed region is "create + wire + add + run to completion", the same for both sides:
/// from before the first operation is created until every operation is finished.
/// Releasing the operations and the checks that follow are not timed.
struct Trial: Sendable {
    var elapsed: Duration
    var operations: Int
    /// Heap still held per operation once the run finished (the finished operations are kept alive).
    var retainedBytesPerOperation: Double?
    /// Why the run is wrong although it completed, if it is.
    var problem: String?

    static func run(_ contender: Contender, _ shape: Shape, n: Int) -> Trial {
        let queue = contender.queue.make()
        queue.name = "benchmark"
        Tally.reset()
        let heapBefore = Heap.bytesInUse()
        let clock = ContinuousClock()
        let start = clock.now

        var operations = shape.build(n, contender.make)
        queue.addOperations(operations, waitUntilFinished: false)
        Completion.waitForAll(operations)

        let elapsed = start.duration(to: clock.now)
        let heapAfter = Heap.bytesInUse()
        let trial = Trial(
            elapsed: elapsed,
            operations: operations.count,
            retainedBytesPerOperation: Heap.perOperation(
                from: heapBefore, to: heapAfter, operations: operations.count),
            problem: check(operations, countsFinishes: contender.countsFinishes))
        Release.lastFirst(&operations)
        return trial
    }

    /// A run only counts if every operation really finished, and every observer heard of it.
    private static func check(_ operations: [Foundation.Operation], countsFinishes: Bool) -> String? {
        let unfinished = operations.lazy.filter { !$0.isFinished }.count
        if unfinished > 0 { return "\(unfinished) of \(operations.count) operations not finished" }
        let failed = operations.lazy.filter { ($0 as? ConditionalOperation)?.failed == true }.count
        if failed > 0 { return "\(failed) of \(operations.count) operations failed" }
        if countsFinishes, Tally.finishCount != operations.count {
            return "\(Tally.finishCount) didFinish callbacks for \(operations.count) operations"
        }
        return nil
    }
}

extension Trial: RoundSample {
    var summary: String { Format.seconds(elapsed) }
}
