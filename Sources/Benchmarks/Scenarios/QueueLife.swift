import ConditionalOperations
import Dispatch
import Foundation

extension Scenario {
    /// S21: `waitUntilIdle()` against Foundation's blocking wait, on the same queue and operations.
    static let waitUntilIdle = Scenario(
        name: "wait-until-idle",
        summary:
            "n no-op operations on ConditionalOperationQueue awaited with waitUntilIdle() vs waitUntilAllOperationsAreFinished(); then 1,000 tasks awaiting waitUntilIdle() at once",
        defaultSizes: [100_000],
        measure: { n, settings, limit in
            let alternation = Alternation(
                label: "wait-until-idle n=\(n)", rounds: settings.rounds, limit: limit, sides: settings.sides)
            let result = alternation.run(
                warmup: { side in IdleWait.run(side, n: n / 10) },
                round: { side in IdleWait.run(side, n: n) })
            var rows: [Row]
            switch result {
            case .failure(let failure):
                rows = [Row(label: "wait-until-idle", n: n, failure: failure)]
            case .success(let samples):
                rows = [TimedSample.row(label: "wait-until-idle", n: n, samples, target: .ratio(1.05))]
            }
            guard settings.sides.contains(.ours) else { return rows }
            rows.append(IdleWait.manyWaiters(n: n, waiters: 1_000))
            return rows
        },
        footnote: { _ in
            "wait-until-idle: Foundation's side blocks a thread in waitUntilAllOperationsAreFinished(); ours awaits waitUntilIdle(). The waiters row: the thread count grows by at most 4."
        })

    /// S22: `queue.run` with the caller's task context against adding and awaiting the finish.
    static let runTaskContext = Scenario(
        name: "run-task-context",
        summary:
            "n AsyncOperation<Void> {} through queue.run (the caller's task context, S22) vs addOperation + await waitUntilFinished(), 8 tasks each running n/8 in turn",
        defaultSizes: [100_000],
        measure: { n, settings, limit in
            TimedSample.alternate(
                label: "run-task-context", n: n, settings: settings, limit: limit, target: .ratio(1.1),
                ContextRun.run(_:n:))
        },
        footnote: { _ in
            "run-task-context: Foundation's column is the library's own add-and-await, without the caller's context."
        })
}

/// One timed round of a scenario whose sides are two ways of doing the same thing.
struct TimedSample: RoundSample {
    var elapsed: Duration
    var problem: String?
    var summary: String { Format.seconds(elapsed) }

    /// The row of `run` alternating between the sides, after a warm-up of a tenth of `n`.
    static func alternate(
        label: String, n: Int, settings: Settings, limit: Duration, target: Target,
        _ run: @escaping @Sendable (Side, Int) -> TimedSample
    ) -> [Row] {
        let alternation = Alternation(
            label: "\(label) n=\(n)", rounds: settings.rounds, limit: limit, sides: settings.sides)
        let result = alternation.run(warmup: { side in run(side, n / 10) }, round: { side in run(side, n) })
        switch result {
        case .failure(let failure):
            return [Row(label: label, n: n, failure: failure)]
        case .success(let samples):
            return [row(label: label, n: n, samples, target: target)]
        }
    }

    static func row(label: String, n: Int, _ samples: [Side: [TimedSample]], target: Target) -> Row {
        let foundation = (samples[.foundation] ?? []).map(\.elapsed)
        let ours = (samples[.ours] ?? []).map(\.elapsed)
        return Row(
            label: label, n: n,
            figures: .time(
                foundation: foundation.median, ours: ours.median,
                ratio: Row.pairedRatio(foundation, ours), operations: n, extraRetainedBytes: nil),
            target: target)
    }
}

/// `n` no-op operations added to a `ConditionalOperationQueue`, then waited for.
enum IdleWait {
    static func run(_ side: Side, n: Int) -> TimedSample {
        let queue = ConditionalOperationQueue()
        let clock = ContinuousClock()
        let start = clock.now
        let operations = (0..<n).map { _ in NoopOperation() }
        queue.addOperations(operations, waitUntilFinished: false)
        switch side {
        case .foundation:
            queue.waitUntilAllOperationsAreFinished()
        case .ours:
            let idle = DispatchSemaphore(value: 0)
            Task {
                await queue.waitUntilIdle()
                idle.signal()
            }
            idle.wait()
        }
        let elapsed = start.duration(to: clock.now)
        let unfinished = operations.lazy.filter { !$0.isFinished }.count
        return TimedSample(
            elapsed: elapsed, problem: unfinished == 0 ? nil : "\(unfinished) of \(n) not finished when idle")
    }

    /// `waiters` tasks await `waitUntilIdle()` of one queue running `n` operations: the waits must
    /// hold no thread.
    static func manyWaiters(n: Int, waiters: Int) -> Row {
        let queue = ConditionalOperationQueue()
        queue.isSuspended = true
        queue.addOperations((0..<n).map { _ in NoopOperation() }, waitUntilFinished: false)
        let (duration, grown) = ConcurrentRun.measureThreads {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<waiters { group.addTask { await queue.waitUntilIdle() } }
                queue.isSuspended = false
            }
        }
        let label = "\(waiters) tasks awaiting waitUntilIdle(), threads +\(grown)"
        guard let duration else {
            return Row(label: label, n: n, failure: .stalled("did not finish in 60 s"))
        }
        guard grown <= 4 else {
            return Row(label: label, n: n, failure: .failed("the thread count grew by \(grown) (at most 4)"))
        }
        return Row(
            label: label, n: n,
            figures: .time(
                foundation: nil, ours: duration, ratio: nil, operations: n, extraRetainedBytes: nil))
    }
}

/// `n` empty `AsyncOperation`s run by 8 tasks, each awaiting its operations one after another.
enum ContextRun {
    static let workers = 8

    static func run(_ side: Side, n: Int) -> TimedSample {
        let queue = ConditionalOperationQueue()
        let done = DispatchSemaphore(value: 0)
        let clock = ContinuousClock()
        let start = clock.now
        Task {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<workers {
                    group.addTask {
                        for _ in 0..<(n / workers) {
                            let operation = AsyncOperation<Void> {}
                            switch side {
                            case .foundation:
                                queue.addOperation(operation)
                                await operation.untilFinished()
                            case .ours:
                                try? await queue.run(operation)
                            }
                        }
                    }
                }
            }
            done.signal()
        }
        let finished = done.wait(timeout: .now() + 120) == .success
        return TimedSample(elapsed: start.duration(to: clock.now), problem: finished ? nil : "did not finish")
    }
}
