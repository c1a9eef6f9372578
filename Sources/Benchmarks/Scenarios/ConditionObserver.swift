extension Scenario {
    /// The cost of the features themselves: one condition evaluated and one observer told per operation.
    static let conditionObserver = Scenario(
        name: "condition-observer",
        summary:
            "operations with 1 BlockCondition { true } + 1 BlockObserver(didFinish:) vs BlockOperation {}",
        defaultSizes: [100_000],
        measure: { n, settings, limit in
            [
                TimedComparison(matchup: Matchup(shape: .independent, ours: .withConditionAndObserver))
                    .run(
                        label: "condition-observer", n: n, settings: settings, limit: limit,
                        target: .ratio(1.3))
            ]
        })
}
