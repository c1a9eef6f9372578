import ConditionalOperations
import Dispatch
import Foundation

extension Scenario {
    /// A category with `limit: 2` whose first unit one long operation holds throughout, while n
    /// short ones take turns with the other: the µs per short operation must not grow with n
    /// (issue 34, finding 7). The library's side alone: Foundation has no counterpart.
    static let exclusiveLongHolder = HostileCost.scenario(
        name: "exclusive-long-holder", label: "long-holder-limit-2",
        summary:
            "n short operations through a category with limit 2 whose other unit one long operation holds: µs per operation should stay flat"
    ) { n in HostileCost.shortOperationsBesideALongHolder(n) }

    /// n operations added to a `ConditionalOperationQueue`, each depending on the end of an
    /// unfinished chain of n operations and awaited by an operation added before it: the µs per
    /// admission must not grow with n (issue 34, finding 7). Only the admissions are timed.
    static let admissionBesideLongChain = HostileCost.scenario(
        name: "admission-long-chain", label: "admission-long-chain",
        summary:
            "adding n operations that depend on an unfinished chain of n and that earlier operations depend on: µs per admission should stay flat"
    ) { n in HostileCost.admissionsBesideALongChain(n) }
}

/// The rounds of the scenarios above: one side, the median of the rounds after a warm-up.
enum HostileCost {
    /// A scenario of the library's side alone, one row `label` per size, timing `workload`.
    static func scenario(
        name: String, label: String, summary: String, workload: @escaping @Sendable (Int) -> Duration
    ) -> Scenario {
        Scenario(
            name: name, summary: summary, defaultSizes: [2_000, 20_000],
            measure: { n, settings, limit in
                guard settings.sides.contains(.ours) else { return [] }
                return [HostileCost.row(label: label, n: n, settings: settings, limit: limit) { workload(n) }]
            },
            footnote: { rows in HostileCost.footnote(label, rows) })
    }

    static func row(
        label: String, n: Int, settings: Settings, limit: Duration, round: @escaping @Sendable () -> Duration
    ) -> Row {
        var times: [Duration] = []
        for index in 0...settings.rounds {
            guard let time = Watchdog.run(limit: limit, round) else {
                return Row(
                    label: label, n: n, failure: .stalled("round \(index): no completion within \(limit)"))
            }
            Log.progress("\(label) n=\(n) round \(index)\(index == 0 ? " (warm-up)" : ""): \(time)")
            if index > 0 { times.append(time) }
        }
        return Row(
            label: label, n: n,
            figures: .time(
                foundation: nil, ours: times.median, ratio: nil, operations: n, extraRetainedBytes: nil))
    }

    /// How much the µs per operation grew from the smallest size to the largest.
    static func footnote(_ label: String, _ rows: [Row]) -> String? {
        let perOperation: [(n: Int, seconds: Double)] = rows.compactMap { row in
            guard case .time(_, let ours?, _, let operations, _) = row.figures else { return nil }
            return (row.n, ours.seconds / Double(operations))
        }
        guard let first = perOperation.first, let last = perOperation.last, first.n != last.n else {
            return nil
        }
        return String(
            format: "%@: µs/op from n=%d to n=%d grows ×%.2f (flat: about 1)", label, first.n, last.n,
            last.seconds / first.seconds)
    }

    /// Holds a unit of its category until `release()`.
    // immutable state: `started`, a semaphore
    final class LongOperation: ConditionalOperation, @unchecked Sendable {
        let started = DispatchSemaphore(value: 0)
        override func execute() { started.signal() }
    }

    static let category = "benchmark long holder"

    /// Times adding n short operations and running them all while a long one holds a unit.
    static func shortOperationsBesideALongHolder(_ n: Int) -> Duration {
        let long = LongOperation()
        long.addCondition(MutuallyExclusive(category: category, limit: 2))
        let holders = ConditionalOperationQueue()
        holders.addOperation(long)
        long.started.wait()
        let queue = ConditionalOperationQueue()
        let clock = ContinuousClock()
        let start = clock.now
        queue.addOperations(
            (0..<n).map { _ in
                let operation = NoopOperation()
                operation.addCondition(MutuallyExclusive(category: category, limit: 2))
                return operation
            }, waitUntilFinished: false)
        queue.waitUntilAllOperationsAreFinished()
        let time = clock.now - start
        long.finish()
        holders.waitUntilAllOperationsAreFinished()
        return time
    }

    /// Times adding n operations, each depending on the last of an unfinished chain of n and
    /// awaited by one added before it.
    static func admissionsBesideALongChain(_ n: Int) -> Duration {
        let queue = ConditionalOperationQueue()
        let gate = BlockOperation {}
        var chain: [Foundation.Operation] = []
        chain.reserveCapacity(n)
        for _ in 0..<n {
            let link = NoopOperation()
            link.addDependency(chain.last ?? gate)
            chain.append(link)
        }
        queue.addOperations(chain, waitUntilFinished: false)
        let added = (0..<n).map { _ in
            let operation = NoopOperation()
            operation.addDependency(chain[n - 1])
            return operation
        }
        let earlier = added.map { operation in
            let dependent = NoopOperation()
            dependent.addDependency(operation)
            return dependent
        }
        queue.addOperations(earlier, waitUntilFinished: false)
        let clock = ContinuousClock()
        let start = clock.now
        for operation in added { queue.addOperation(operation) }
        let time = clock.now - start
        queue.addOperation(gate)
        queue.waitUntilAllOperationsAreFinished()
        return time
    }
}
