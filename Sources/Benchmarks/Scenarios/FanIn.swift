extension Scenario {
    /// One operation waiting for many: every finishing dependency re-asks the sink's `isReady`.
    static let fanIn = Scenario(
        name: "fan-in",
        summary: "one operation depending on n others, plain OperationQueue",
        defaultSizes: [10_000],
        measure: { n, settings, limit in
            [
                TimedComparison(matchup: Matchup(shape: .fanIn, ours: .noop))
                    .run(label: "fan-in", n: n, settings: settings, limit: limit, target: nil)
            ]
        })
}
