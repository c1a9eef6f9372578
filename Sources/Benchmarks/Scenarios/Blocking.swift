import ConditionalOperations
import Dispatch
import Foundation

extension Scenario {
    /// S35: operations that block inside `start()` hold nobody back. Eight operations that block are
    /// added, then n quick ones: the time from the first add until the quick ones finished, on
    /// Foundation's `OperationQueue` and on a `ConditionalOperationQueue`, neither with a limit.
    static let blocking = Scenario(
        name: "blocking",
        summary:
            "8 operations blocked in start(), then n quick BlockOperations, no limit: the time until the quick ones finished (S35)",
        defaultSizes: [1_000],
        measure: { n, settings, limit in
            TimedSample.alternate(
                label: "8 blocked + n quick", n: n, settings: settings, limit: limit, target: .ratio(2),
                Blocking.run(_:n:))
        },
        footnote: { _ in
            "8 blocked + n quick: the 8 wait on a semaphore inside start() until the quick ones finished; timed from the first add. The warm-up pays for Dispatch's thread pool to grow past the blocked threads (on Linux about one thread a second: 7 s for either side in a fresh process), as any first run in a process does."
        })
}

enum Blocking {
    static let blocked = 8

    static func run(_ side: Side, n: Int) -> TimedSample {
        let queue: OperationQueue = side == .foundation ? OperationQueue() : ConditionalOperationQueue()
        let release = DispatchSemaphore(value: 0)
        let quick = DispatchGroup()
        let operations = (0..<n).map { _ in
            quick.enter()
            return BlockOperation { quick.leave() }
        }
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<blocked { queue.addOperation(BlockOperation { release.wait() }) }
        queue.addOperations(operations, waitUntilFinished: false)
        quick.wait()
        let elapsed = start.duration(to: clock.now)
        for _ in 0..<blocked { release.signal() }
        queue.waitUntilAllOperationsAreFinished()
        return TimedSample(elapsed: elapsed, problem: nil)
    }
}
