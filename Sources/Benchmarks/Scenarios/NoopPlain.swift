extension Scenario {
    /// The library's fixed cost per operation: nothing attached, nothing to do.
    static let noopPlain = Scenario(
        name: "noop-plain",
        summary: "no-op operations on a plain OperationQueue: BlockOperation {} vs ConditionalOperation",
        defaultSizes: [100_000],
        measure: { n, settings, limit in
            [
                TimedComparison(matchup: Matchup(shape: .independent, ours: .noop))
                    .run(label: "noop-plain", n: n, settings: settings, limit: limit, target: .ratio(1.0))
            ]
        })
}
