import ConditionalOperations
import Dispatch
import Foundation

extension Contender {
    /// Foundation's side: a hand-written asynchronous `Operation` running an empty body in a `Task`.
    static let taskOperation = Contender { TaskOperation {} }

    /// The library: `AsyncOperation<Void>` with an empty body, on a `ConditionalOperationQueue`.
    static let asyncOperationOnConditionalQueue = Contender(
        make: { AsyncOperation<Void> {} }, queue: .conditional)
}

extension Scenario {
    /// `AsyncOperation` against the boilerplate it replaces.
    static let asyncOperation = Scenario(
        name: "async-operation",
        summary:
            "AsyncOperation<Void> {} on ConditionalOperationQueue vs a hand-written asynchronous Operation running its body in a Task, on OperationQueue",
        defaultSizes: [100_000],
        measure: { n, settings, limit in
            [
                TimedComparison(
                    matchup: Matchup(
                        shape: .independent, foundation: .taskOperation,
                        ours: .asyncOperationOnConditionalQueue)
                )
                .run(label: "async-operation", n: n, settings: settings, limit: limit, target: .ratio(0.8))
            ]
        })

    /// Many tasks awaiting `queue.run` at once: the waits must hold no thread.
    static let concurrentRun = Scenario(
        name: "concurrent-run",
        summary:
            "n tasks each awaiting queue.run(AsyncOperation) at once: time, and the growth of the thread count",
        defaultSizes: [10_000],
        measure: { n, settings, limit in
            guard settings.sides.contains(.ours) else { return [] }
            _ = ConcurrentRun.measure(n: min(n, 1_000))  // warm-up: the pools reach their resting size
            let (duration, grown) = ConcurrentRun.measure(n: n)
            guard let duration else {
                return [Row(label: "concurrent-run", n: n, failure: .stalled("did not finish in 60 s"))]
            }
            let label = "concurrent-run, threads +\(grown)"
            guard grown <= 4 else {
                return [
                    Row(label: label, n: n, failure: .failed("the thread count grew by \(grown) (at most 4)"))
                ]
            }
            return [
                Row(
                    label: label, n: n,
                    figures: .time(
                        foundation: nil, ours: duration, ratio: nil, operations: n, extraRetainedBytes: nil))
            ]
        },
        footnote: { _ in
            "concurrent-run: the target is that it finishes and the thread count grows by at most 4."
        })
}

/// Runs `n` tasks that each await `queue.run` of an empty `AsyncOperation`, sampling the thread
/// count meanwhile.
enum ConcurrentRun {
    static func measure(n: Int) -> (duration: Duration?, threadsGrown: Int) {
        let queue = ConditionalOperationQueue()
        return measureThreads {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<n {
                    group.addTask { try? await queue.run(AsyncOperation<Void> {}) }
                }
            }
        }
    }

    /// Runs `body` in a task, sampling the thread count every millisecond: how long it took
    /// (`nil` past 60 s) and how far the count grew above its level before.
    static func measureThreads(_ body: @escaping @Sendable () async -> Void) -> (
        duration: Duration?, threadsGrown: Int
    ) {
        let before = threadCount()
        let peak = PeakCounter(before)
        let sampler = DispatchSource.makeTimerSource(queue: .global())
        sampler.schedule(deadline: .now(), repeating: .milliseconds(1))
        sampler.setEventHandler { peak.record(threadCount()) }
        sampler.resume()
        let done = DispatchSemaphore(value: 0)
        let clock = ContinuousClock()
        let start = clock.now
        Task {
            await body()
            done.signal()
        }
        let finished = done.wait(timeout: .now() + 60) == .success
        let duration = clock.now - start
        sampler.cancel()
        return (finished ? duration : nil, peak.value - before)
    }

    /// The process's thread count, from `/proc/self/status` (0 where there is none).
    static func threadCount() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Threads:") })
        else { return 0 }
        return Int(line.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces)) ?? 0
    }

    /// The highest count recorded.
    final class PeakCounter: @unchecked Sendable {
        // mutable state: `peak`, behind `lock`
        private let lock = NSLock()
        private var peak: Int

        init(_ start: Int) { peak = start }

        func record(_ count: Int) { lock.withLock { peak = max(peak, count) } }

        var value: Int { lock.withLock { peak } }
    }
}
