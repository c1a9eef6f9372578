import ConditionalOperations
import Foundation

/// Heap per live operation that has not run yet, Foundation's side and ours, alternately.
struct MemoryComparison: Sendable {
    enum Placement: Sendable {
        /// Created and configured, never added to a queue.
        case notEnqueued
        /// Added to a suspended `OperationQueue`: what a backlog of pending work costs.
        /// The queue's own bookkeeping counts on both sides alike.
        case suspendedQueue
    }

    var matchup: Matchup
    var placement: Placement

    func run(label: String, n: Int, settings: Settings, limit: Duration, target: Target?) -> Row {
        let matchup = matchup
        let placement = placement
        let alternation = Alternation(
            label: "\(label) n=\(n)", rounds: settings.rounds, limit: limit, sides: settings.sides)
        let result = alternation.run(
            warmup: { side in Self.measure(matchup.contender(side), n: min(n, 10_000), placement) },
            round: { side in Self.measure(matchup.contender(side), n: n, placement) })
        switch result {
        case .failure(let failure):
            return Row(label: label, n: n, failure: failure)
        case .success(let samples):
            let foundation = (samples[.foundation] ?? []).compactMap(\.bytesPerOperation).median
            let ours = (samples[.ours] ?? []).compactMap(\.bytesPerOperation).median
            guard foundation != nil || ours != nil else {
                return Row(label: label, n: n, figures: .unavailable("no heap statistics on this platform"))
            }
            return Row(
                label: label, n: n, figures: .memory(foundation: foundation, ours: ours), target: target)
        }
    }

    private static func measure(_ contender: Contender, n: Int, _ placement: Placement) -> MemorySample {
        let queue = OperationQueue()
        queue.isSuspended = true
        let before = Heap.bytesInUse()
        var operations = Shape.independent.build(n, contender.make)
        if placement == .suspendedQueue { queue.addOperations(operations, waitUntilFinished: false) }
        let after = Heap.bytesInUse()

        // Run what was enqueued, so no operation is released while its queue still holds it.
        queue.isSuspended = false
        if placement == .suspendedQueue { Completion.waitForAll(operations) }
        var problem: String?
        if placement == .suspendedQueue {
            let unfinished = operations.lazy.filter { !$0.isFinished }.count
            if unfinished > 0 { problem = "\(unfinished) of \(n) operations not finished once resumed" }
        }
        Release.lastFirst(&operations)
        return MemorySample(
            bytesPerOperation: Heap.perOperation(from: before, to: after, operations: n), problem: problem)
    }
}

struct MemorySample: RoundSample {
    var bytesPerOperation: Double?
    var problem: String?
    var summary: String { bytesPerOperation.map { Format.bytes($0) + "/op" } ?? "n/a" }
}
