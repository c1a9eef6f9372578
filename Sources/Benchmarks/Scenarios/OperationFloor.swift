import ConditionalOperations
import Dispatch
import Foundation

extension Scenario {
    /// The Operation floor: no `Operation` subclass costs as little as a Dispatch closure (each
    /// allocates its own locks before it runs), so the library's queue is judged against the least
    /// any asynchronous `Operation` costs, started by hand on Dispatch.
    static let operationFloor = Scenario(
        name: "operation-floor",
        summary:
            "n minimal asynchronous Operations, each started by hand on DispatchQueue.global() (the Operation floor) vs n ConditionalOperation on ConditionalOperationQueue",
        defaultSizes: [100_000],
        measure: { n, settings, limit in OperationFloor.rows(n: n, settings: settings, limit: limit) },
        footnote: { _ in OperationFloor.footnote })
}

/// One round of `operation-floor`: `n` minimal operations started by hand, or `n` no-op operations
/// on the library's queue, run to completion.
enum OperationFloor {
    static let footnote =
        "operation-floor: Foundation's column is the Operation floor, n minimal asynchronous Operations (KVO sent, state under a lock), each started by hand in its own closure on DispatchQueue.global(); ours adds them in one addOperations, and in the -one-by-one row with one addOperation each, as most programs do; the target is ≤ 1.0× for both."

    static func rows(n: Int, settings: Settings, limit: Duration) -> [Row] {
        TimedSample.alternate(
            label: "operation-floor", n: n, settings: settings, limit: limit, target: .ratio(1.0),
            { run($0, n: $1, oneByOne: false) })
            + TimedSample.alternate(
                label: "operation-floor-one-by-one", n: n, settings: settings, limit: limit,
                target: .ratio(1.0),
                { run($0, n: $1, oneByOne: true) })
    }

    /// `oneByOne`: the library's queue is given one `addOperation` per operation.
    static func run(_ side: Side, n: Int, oneByOne: Bool) -> TimedSample {
        let clock = ContinuousClock()
        let start = clock.now
        let operations: [Foundation.Operation]
        switch side {
        case .foundation:
            let floor = (0..<n).map { _ in FloorOperation() }
            let group = DispatchGroup()
            let queue = DispatchQueue.global()
            for operation in floor { queue.async(group: group) { operation.start() } }
            group.wait()
            operations = floor
        case .ours:
            let queue = ConditionalOperationQueue()
            operations = (0..<n).map { _ in NoopOperation() }
            if oneByOne {
                for operation in operations { queue.addOperation(operation) }
            } else {
                queue.addOperations(operations, waitUntilFinished: false)
            }
            queue.waitUntilAllOperationsAreFinished()
        }
        let elapsed = start.duration(to: clock.now)
        let unfinished = operations.lazy.filter { !$0.isFinished }.count
        return TimedSample(
            elapsed: elapsed, problem: unfinished == 0 ? nil : "\(unfinished) of \(n) not finished")
    }
}
