import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests {
    /// Randomised, reproducible workloads checked against S1–S12 (see `StressChecks`): random
    /// dependency graphs, operations that finish at once, later or never, conditions of every kind,
    /// exclusivity categories, timeouts, cancels and finishes from other threads, and queues with
    /// varying widths that are suspended and resumed. Every failure names its seed and the command
    /// that replays it; `StressConfiguration` lists the environment variables.
    @Suite struct StressTests {
        @Test(arguments: StressConfiguration.shortSeeds)
        func S1toS12_aRandomWorkloadKeepsEveryInvariant(seed: UInt64) async {
            await runBatch(
                seed: seed, size: StressConfiguration.batchSize(default: StressConfiguration.shortBatchSize))
        }

        @Test(.enabled(if: StressConfiguration.replaySeed != nil, "set STRESS_SEED to replay one batch"))
        func S1toS12_replayOneSeed() async throws {
            let seed = try #require(StressConfiguration.replaySeed)
            await runBatch(
                seed: seed, size: StressConfiguration.batchSize(default: StressConfiguration.shortBatchSize))
        }

        @Test(
            .enabled(
                if: StressConfiguration.longRunOperations != nil, "set STRESS_OPERATIONS for the long run"))
        func S1toS12_longRun() async throws {
            let target = try #require(StressConfiguration.longRunOperations)
            let size = StressConfiguration.batchSize(default: StressConfiguration.longBatchSize)
            let base = StressConfiguration.baseSeed
            log(
                "stress: long run of \(target) operations in batches of \(size), base seed \(StressConfiguration.hex(base))"
            )
            let clock = ContinuousClock()
            let start = clock.now
            var total = StressOutcome(seed: base, operations: 0)
            var failedBatches = 0
            var batch = 0
            var slowest = Duration.zero
            while total.operations < target && failedBatches < 5 {
                let seed = SplitMix64.derive(base, batch)
                let outcome = await StressBatch.run(
                    StressPlan(seed: seed, count: size), stallSeconds: StressConfiguration.stallSeconds)
                record(outcome, size: size)
                if !outcome.failures.isEmpty { failedBatches += 1 }
                total.operations += outcome.operations
                total.executed += outcome.executed
                total.cancelled += outcome.cancelled
                total.conditionFailures += outcome.conditionFailures
                total.timedOut += outcome.timedOut
                total.lateExecutes += outcome.lateExecutes
                total.extraOperations += outcome.extraOperations
                slowest = max(slowest, outcome.duration)
                batch += 1
                if batch.isMultiple(of: 50) {
                    log(
                        "stress: \(total.operations) operations, \(batch) batches, \(format(clock.now - start)), failed batches \(failedBatches)"
                    )
                }
            }
            log(
                "stress: done: \(total.operations) operations in \(batch) batches, \(format(clock.now - start)) "
                    + "(slowest batch \(format(slowest))); executed \(total.executed), cancelled \(total.cancelled), "
                    + "condition failures \(total.conditionFailures), timed out \(total.timedOut), "
                    + "late execute() \(total.lateExecutes), produced \(total.extraOperations); "
                    + "failed batches \(failedBatches), base seed \(StressConfiguration.hex(base))")
        }

        @Test func aSeedReplaysTheSameWorkloadShape() {
            var generator = SplitMix64(seed: 0)
            #expect(generator.next() == 0xE220_A839_7B1D_CDAF, "SplitMix64's reference output")
            let seed: UInt64 = 0x5EED_0001
            #expect(StressPlan(seed: seed, count: 500) == StressPlan(seed: seed, count: 500))
            #expect(StressPlan(seed: seed, count: 500) != StressPlan(seed: seed + 1, count: 500))
            #expect(SplitMix64.derive(seed, 3) == SplitMix64.derive(seed, 3))
            #expect(SplitMix64.derive(seed, 3) != SplitMix64.derive(seed, 4))
        }

        @Test func theShortRunCoversEveryKindOfWorkload() {
            let plans = StressConfiguration.shortSeeds.map {
                StressPlan(seed: $0, count: StressConfiguration.shortBatchSize)
            }
            let operations = plans.flatMap(\.operations)
            let conditions = operations.flatMap(\.conditions)
            let probes = conditions.compactMap {
                if case .probe(let probe, let wrapper) = $0 { (probe, wrapper) } else { nil }
            }
            var covered: [String: Bool] = [
                "chain": operations.contains { $0.dependencies.count == 1 },
                "fan-in": operations.contains { $0.dependencies.count >= 10 },
                "finish at once": operations.contains { $0.work == .finishAtOnce },
                "finish later": operations.contains {
                    if case .finishLater = $0.work { true } else { false }
                },
                "never": operations.contains { $0.work == .never },
                "finish error": operations.contains(where: \.finishesWithError),
                "produce": operations.contains { $0.produces > 0 },
                "timeout": operations.contains { $0.timeout != nil },
                "external finish": operations.contains { $0.externalFinish != nil },
                "finishesWhenCancelled false": operations.contains { !$0.finishesWhenCancelled },
                "awaited": operations.contains(where: \.awaited),
                "double cancel": operations.contains { $0.cancel?.twice == true },
                "readiness queries": operations.contains { !$0.readinessQueries.isEmpty },
                "several categories": operations.contains { $0.categories.count >= 2 },
                "suspended queue": plans.contains { $0.queues.contains(where: \.startsSuspended) },
                "toggled queue": plans.contains { $0.queues.contains { !$0.toggles.isEmpty } },
                "serial queue": plans.contains { $0.queues.contains { $0.maxConcurrentOperationCount == 1 } },
                "shuffled enqueue": plans.contains { $0.enqueueOrder != Array(0..<$0.operations.count) },
                "failing probe": probes.contains { !$0.0.satisfied },
                "late probe": probes.contains { $0.0.timing != .sync },
                "answers twice": probes.contains { $0.0.answersTwice },
                "condition dependency": probes.contains { $0.0.hasDependency && $0.1 == .plain },
                "silent dependency": probes.contains { $0.0.hasDependency && $0.1 == .silent },
                "negated": probes.contains { $0.1 == .negated },
                "block false": conditions.contains(.block(false)),
                "throwing": conditions.contains(.throwing),
                "NoFailedDependencies": conditions.contains {
                    if case .noFailedDependencies = $0 { true } else { false }
                },
                "silent exclusive": conditions.contains {
                    if case .exclusive(_, true) = $0 { true } else { false }
                },
            ]
            for moment in ["beforeEnqueue", "afterEnqueue", "afterStart", "duringEvaluation"] {
                covered["cancel \(moment)"] = operations.contains { operation in
                    operation.cancel.map { String(describing: $0.moment).hasPrefix(moment) } ?? false
                }
            }
            #expect(covered.filter { !$0.value }.map(\.key).sorted() == [])
        }

        // MARK: Helpers

        private func runBatch(seed: UInt64, size: Int) async {
            let outcome = await StressBatch.run(
                StressPlan(seed: seed, count: size), stallSeconds: StressConfiguration.stallSeconds)
            record(outcome, size: size)
        }

        /// Every failure of a batch, each with its seed and the command that replays it.
        private func record(_ outcome: StressOutcome, size: Int) {
            if StressConfiguration.isVerbose {
                log(
                    "stress: seed \(StressConfiguration.hex(outcome.seed)): \(outcome.operations) operations in "
                        + "\(format(outcome.duration)); executed \(outcome.executed), cancelled \(outcome.cancelled), "
                        + "condition failures \(outcome.conditionFailures), timed out \(outcome.timedOut), "
                        + "late execute() \(outcome.lateExecutes), "
                        + "failures \(outcome.failures.count)")
            }
            guard !outcome.failures.isEmpty else { return }
            let replay = StressConfiguration.replayCommand(seed: outcome.seed, size: size)
            let shown = outcome.failures.prefix(20).joined(separator: "\n")
            let more = outcome.failures.count > 20 ? "\n… \(outcome.failures.count - 20) more" : ""
            let message =
                "stress seed \(StressConfiguration.hex(outcome.seed)) (\(size) operations, "
                + "\(StressPlan(seed: outcome.seed, count: size).summary)): "
                + "\(outcome.failures.count) failures; replay: \(replay)\n\(shown)\(more)"
            Issue.record(Comment(rawValue: message))
        }

        private func log(_ message: String) {
            FileHandle.standardError.write(Data((message + "\n").utf8))
        }

        private func format(_ duration: Duration) -> String {
            String(format: "%.3f s", duration.seconds)
        }
    }
}
