import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests {
    /// Hostile but legal use: every way an operation ends, alone, in pairs and in triples, in every
    /// phase, on both queue kinds and started by hand, in groups, with other threads reading
    /// every public member meanwhile; last references released mid-flight; fan-in and fan-out
    /// above 64; limits above 1 under a long holder and in groups; dependencies and priorities
    /// changed late. After each round: every operation finished exactly once, no category is
    /// held or over its limit, nothing outlived the work, every error is kept.
    ///
    /// Seeded and replayable like the stress run: every failure prints its seed and the command
    /// that replays it; `AdversaryConfiguration` lists the environment variables
    /// (`ADVERSARY_MULTIPLIER=100` is the long mode).
    @Suite struct AdversaryTests {
        /// Scenarios of a round of ``S1S2S4S5S6S8S11S17S21_everyPairAndTripleOfEndingsInEveryPhase()``.
        static let endingsPerRound = 40
        static let endingsRounds = 8

        @Test func S1S2S4S5S6S8S11S17S21_everyPairAndTripleOfEndingsInEveryPhase() async {
            await AdversaryRunner.run(
                "S1S2S4S5S6S8S11S17S21_everyPairAndTripleOfEndingsInEveryPhase", rounds: Self.endingsRounds
            ) { seed in
                await AdversaryEndingsRound.run(AdversaryEndingsPlan(seed: seed, count: Self.endingsPerRound))
            }
        }

        /// Three threads read every public member of the operation, its group and its queue
        /// from the moment it is made until it finished, in every phase, while one ending lands.
        @Test func S1S13S16_everyPublicMemberReadFromSeveralThreadsInEveryPhase() async {
            let single = AdversaryEnding.allCases.map { [$0] }
            await AdversaryRunner.run(
                "S1S13S16_everyPublicMemberReadFromSeveralThreadsInEveryPhase", rounds: 2
            ) {
                seed in
                await AdversaryEndingsRound.run(
                    AdversaryEndingsPlan(seed: seed, count: 24, readers: 3, combinations: single),
                    concurrency: 4)
            }
        }

        // MARK: The harness itself

        @Test func aSeedReplaysTheSameScenarios() {
            let seed = AdversaryConfiguration.roundSeed(test: "x", round: 3)
            #expect(seed & 0xFFFF == 3, "the round's place is in the seed")
            #expect(
                AdversaryEndingsPlan(seed: seed, count: 40) == AdversaryEndingsPlan(seed: seed, count: 40))
            #expect(
                AdversaryEndingsPlan(seed: seed, count: 40)
                    != AdversaryEndingsPlan(seed: seed ^ 0x10000, count: 40))
            #expect(
                AdversaryConfiguration.roundSeed(test: "x", round: 3)
                    != AdversaryConfiguration.roundSeed(test: "y", round: 3))
        }

        /// The normal run deals every pair of endings, and every ending in every phase on every
        /// kind of queue; the long mode (100 times the rounds) deals every triple too.
        @Test func theNormalRunCoversEveryPairAndEveryEndingInEveryPhase() {
            func plans(_ rounds: Int) -> [AdversaryScenario] {
                (0..<rounds).flatMap { round in
                    let seed = AdversaryConfiguration.roundSeed(
                        test: "S1S2S4S5S6S8S11S17S21_everyPairAndTripleOfEndingsInEveryPhase", round: round)
                    return AdversaryEndingsPlan(seed: seed, count: Self.endingsPerRound).scenarios
                }
            }
            let normal = plans(Self.endingsRounds)
            let dealt = Set(normal.map { $0.steps.map(\.ending.rawValue).sorted() })
            let pairs = AdversaryEnding.combinations.filter { $0.count == 2 }.map { $0.map(\.rawValue) }
            #expect(pairs.allSatisfy(dealt.contains), "every pair of endings")
            var missing: [String] = []
            for ending in AdversaryEnding.allCases {
                for phase in AdversaryPhase.allCases
                where !normal.contains(where: {
                    $0.phase == phase && $0.steps.contains { $0.ending == ending }
                }) {
                    missing.append("\(ending) in \(phase)")
                }
            }
            for kind in AdversaryQueueKind.allCases {
                for phase in AdversaryPhase.allCases
                where !normal.contains(where: { $0.kind == kind && $0.phase == phase }) {
                    missing.append("\(kind) in \(phase)")
                }
                for grouped in [false, true]
                where !normal.contains(where: { $0.kind == kind && $0.grouped == grouped }) {
                    missing.append("\(kind), grouped \(grouped)")
                }
            }
            #expect(missing == [])
            let long = Set(
                plans(Self.endingsRounds * AdversaryConfiguration.longModeMultiplier).map {
                    $0.steps.map(\.ending.rawValue).sorted()
                })
            #expect(long.count == AdversaryEnding.combinations.count, "the long mode deals every triple")
        }
    }
}
