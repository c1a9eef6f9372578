extension Scenario {
    /// Many operations released at once by one dependency; quadratic in Foundation's queue.
    static let fanOut = Scenario(
        name: "fan-out",
        summary: "n operations depending on one, plain OperationQueue",
        defaultSizes: [10_000],
        timeLimit: Scenario.quadraticLimit,
        measure: { n, settings, limit in
            [
                TimedComparison(matchup: Matchup(shape: .fanOut, ours: .noop), warmupSize: { min($0, 1_000) })
                    .run(label: "fan-out", n: n, settings: settings, limit: limit, target: nil)
            ]
        })
}
