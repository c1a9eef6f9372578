import Foundation
import Testing

/// How much adversity to run, from the environment (seeds as ``StressConfiguration`` reads them):
///
/// - `ADVERSARY_SEED=<seed>` replays one round of the tests the `--filter` picks: the seed every
///   failure prints, with the command that replays it.
/// - `ADVERSARY_MULTIPLIER=<n>` runs n times the rounds of the normal run, from
///   `ADVERSARY_BASE_SEED` (default: random, printed). `ADVERSARY_MULTIPLIER=100` is the long
///   mode, a deeper run by hand.
/// - `ADVERSARY_STALL_SECONDS=<s>`: how long a scenario may take before it counts as a stall
///   (default 20).
///
/// The normal run (multiplier 1) starts from a fixed base seed, so that CI always runs the same
/// scenarios: a few seconds in a debug build, small enough for ThreadSanitizer too.
enum AdversaryConfiguration {
    static let fixedBaseSeed: UInt64 = 0xAD5E_2026
    static let longModeMultiplier = 100

    private static var environment: [String: String] { ProcessInfo.processInfo.environment }

    static var replaySeed: UInt64? { environment["ADVERSARY_SEED"].flatMap(StressConfiguration.parseSeed) }

    static var multiplier: Int {
        environment["ADVERSARY_MULTIPLIER"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil } ?? 1
    }

    static let baseSeed: UInt64 =
        ProcessInfo.processInfo.environment["ADVERSARY_BASE_SEED"].flatMap(StressConfiguration.parseSeed)
        ?? (multiplier == 1 ? fixedBaseSeed : UInt64.random(in: 0...UInt64.max))

    static var stallSeconds: Double {
        environment["ADVERSARY_STALL_SECONDS"].flatMap { Double($0) }.flatMap { $0 > 0 ? $0 : nil } ?? 20
    }

    /// The seed of round `round` of a test: its low 16 bits are the round's place in the run
    /// (plans deal their combinations from it), the rest drawn from the base seed and the test.
    static func roundSeed(test: String, round: Int) -> UInt64 {
        var salt: UInt64 = 0xCBF2_9CE4_8422_2325  // FNV-1a of the test's name: each test its own seeds
        for byte in test.utf8 { salt = (salt ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return (SplitMix64.derive(baseSeed ^ salt, round) & ~0xFFFF) | UInt64(round & 0xFFFF)
    }

    static func replayCommand(seed: UInt64, test: String) -> String {
        "ADVERSARY_SEED=\(StressConfiguration.hex(seed)) swift test --filter 'AdversaryTests/\(test)'"
    }
}

/// Runs a test's rounds and records every failing round as an issue that names its seed and
/// the command that replays it.
enum AdversaryRunner {
    /// Runs `rounds` rounds (times the multiplier), or only the round `ADVERSARY_SEED` names.
    /// `round` returns the broken invariants of the round its seed plans.
    static func run(
        _ test: String, rounds: Int, sourceLocation: SourceLocation = #_sourceLocation,
        _ round: (_ seed: UInt64) async -> [String]
    ) async {
        if let seed = AdversaryConfiguration.replaySeed {
            record(await round(seed), seed: seed, test: test, sourceLocation: sourceLocation)
            return
        }
        let multiplier = AdversaryConfiguration.multiplier
        let clock = ContinuousClock()
        let start = clock.now
        var failedRounds = 0
        var ran = 0
        for index in 0..<(rounds * multiplier) where failedRounds < 5 {
            let seed = AdversaryConfiguration.roundSeed(test: test, round: index)
            let failures = await round(seed)
            ran += 1
            if !failures.isEmpty { failedRounds += 1 }
            record(failures, seed: seed, test: test, sourceLocation: sourceLocation)
        }
        if multiplier > 1 {
            let seconds = (clock.now - start).seconds
            log(
                "adversary: \(test): \(ran) rounds (\(multiplier)× \(rounds)) in \(String(format: "%.1f", seconds)) s, "
                    + "failed rounds \(failedRounds), base seed \(StressConfiguration.hex(AdversaryConfiguration.baseSeed))"
            )
        }
    }

    private static func record(
        _ failures: [String], seed: UInt64, test: String, sourceLocation: SourceLocation
    ) {
        guard !failures.isEmpty else { return }
        let shown = failures.prefix(12).joined(separator: "\n")
        let more = failures.count > 12 ? "\n… \(failures.count - 12) more" : ""
        let message =
            "adversary seed \(StressConfiguration.hex(seed)): \(failures.count) broken invariants; replay: "
            + "\(AdversaryConfiguration.replayCommand(seed: seed, test: test))\n\(shown)\(more)"
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    }

    static func log(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}
