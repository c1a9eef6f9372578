import ConditionalOperations
import Dispatch
import Foundation

extension Scenario {
    /// The floor: what the same number of empty closures costs on Dispatch itself, against the
    /// library's own queue (its target is a small multiple of the floor).
    static let dispatchFloor = Scenario(
        name: "dispatch-floor",
        summary:
            "n empty closures on DispatchQueue.global() (the floor) vs n ConditionalOperation on ConditionalOperationQueue",
        defaultSizes: [100_000],
        measure: { n, settings, limit in
            TimedSample.alternate(
                label: "dispatch-floor", n: n, settings: settings, limit: limit, target: .ratio(3),
                Floor.run(_:n:))
        },
        footnote: { _ in
            "dispatch-floor: Foundation's column is the floor, n empty closures on DispatchQueue.global() with a group."
        })

    /// A fan-out on the library's own queue: no scheduling pass walks the waiting operations.
    static let fanOutConditionalQueue = Scenario(
        name: "fan-out-conditional-queue",
        summary:
            "n operations depending on one: BlockOperation on OperationQueue vs ConditionalOperationQueue",
        defaultSizes: [10_000],
        timeLimit: Scenario.quadraticLimit,
        measure: { n, settings, limit in
            [
                TimedComparison(
                    matchup: Matchup(shape: .fanOut, ours: .noopOnConditionalQueue),
                    warmupSize: { min($0, 1_000) }
                )
                .run(label: "fan-out-cond-queue", n: n, settings: settings, limit: limit, target: nil)
            ]
        })
}

/// One round of `dispatch-floor`: `n` closures, or `n` no-op operations, run to completion.
enum Floor {
    static func run(_ side: Side, n: Int) -> TimedSample {
        let clock = ContinuousClock()
        let start = clock.now
        switch side {
        case .foundation:
            let group = DispatchGroup()
            let queue = DispatchQueue.global()
            for _ in 0..<n { queue.async(group: group) {} }
            group.wait()
        case .ours:
            let queue = ConditionalOperationQueue()
            queue.addOperations((0..<n).map { _ in NoopOperation() }, waitUntilFinished: false)
            queue.waitUntilAllOperationsAreFinished()
        }
        return TimedSample(elapsed: start.duration(to: clock.now), problem: nil)
    }
}
