import Foundation

/// How much stress to run, from the environment:
///
/// - `STRESS_SEED=<seed>` replays one batch (decimal or `0x…` hex), of `STRESS_BATCH` operations.
/// - `STRESS_OPERATIONS=<n>` runs the long run: batches of `STRESS_BATCH` operations (default
///   1000) until `n` operations ran, from `STRESS_BASE_SEED` (default: random, printed).
/// - `STRESS_QUEUE_KINDS=OperationQueue,ConditionalOperationQueue`: the queue kinds (see
///   ``StressQueueKind``; default: both).
/// - `STRESS_VERBOSE=1`: a line per batch with what it did.
/// - `STRESS_STALL_SECONDS=<s>`: how long a batch may take before it counts as a stall (default 30).
///
/// Foundation's plain `OperationQueue` on Linux walks every queued operation on each scheduling
/// pass, so batches stay moderate and the long run runs many of them.
enum StressConfiguration {
    /// The batches of the normal test run: fixed seeds, a few seconds in a debug build.
    static let shortSeeds: [UInt64] = [
        0x5EED_0001, 0x5EED_0002, 0x5EED_0003, 0x5EED_0004, 0x5EED_0005, 0x5EED_0006,
    ]
    static let shortBatchSize = 500
    static let longBatchSize = 1_000

    private static var environment: [String: String] { ProcessInfo.processInfo.environment }

    static var replaySeed: UInt64? { environment["STRESS_SEED"].flatMap(parseSeed) }

    static var longRunOperations: Int? {
        environment["STRESS_OPERATIONS"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
    }

    /// `STRESS_VERBOSE=1`: one line per batch on standard error.
    static var isVerbose: Bool { environment["STRESS_VERBOSE"] == "1" }

    static func batchSize(default size: Int) -> Int {
        environment["STRESS_BATCH"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil } ?? size
    }

    static var baseSeed: UInt64 {
        environment["STRESS_BASE_SEED"].flatMap(parseSeed) ?? UInt64.random(in: 0...UInt64.max)
    }

    static var stallSeconds: Double {
        environment["STRESS_STALL_SECONDS"].flatMap { Double($0) }.flatMap { $0 > 0 ? $0 : nil } ?? 30
    }

    static func parseSeed(_ text: String) -> UInt64? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        if trimmed.hasPrefix("0x") {
            return UInt64(trimmed.dropFirst(2).replacingOccurrences(of: "_", with: ""), radix: 16)
        }
        return UInt64(trimmed)
    }

    static func hex(_ seed: UInt64) -> String { "0x" + String(seed, radix: 16) }

    /// The command that replays one batch.
    static func replayCommand(seed: UInt64, size: Int) -> String {
        "STRESS_SEED=\(hex(seed)) STRESS_BATCH=\(size) swift test --scratch-path .build-stress --filter Stress"
    }
}

extension Duration {
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
