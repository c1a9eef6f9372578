extension Scenario {
    /// Dependent operations on a plain queue, where Foundation's scheduling pass walks every
    /// queued operation: the cost is Foundation's, and the library must not add to it.
    ///
    /// Not 50k by default: Foundation needs about 290 s for it on Linux (ask with `--n 50000`).
    static let chainPlain = Scenario(
        name: "chain-plain",
        summary: "chain of dependent operations (each depends on the previous) on a plain OperationQueue",
        defaultSizes: [2_000, 10_000],
        timeLimit: Scenario.quadraticLimit,
        measure: { n, settings, limit in
            [
                TimedComparison(matchup: Matchup(shape: .chain, ours: .noop), warmupSize: { min($0, 1_000) })
                    .run(label: "chain-plain", n: n, settings: settings, limit: limit, target: nil)
            ]
        })
}
