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
                        target: .ratio(1.2))
            ]
        })

    /// What a combinator costs: `a && b` against the same two conditions added separately.
    static let combinedConditions = Scenario(
        name: "combined-conditions",
        summary:
            "operations with BlockCondition { true } && BlockCondition { true } vs the two added separately",
        defaultSizes: [100_000],
        measure: { n, settings, limit in
            [
                TimedComparison(
                    matchup: Matchup(
                        shape: .independent, foundation: .withTwoConditions, ours: .withAllOfTwoConditions)
                )
                .run(
                    label: "and-vs-two-conditions", n: n, settings: settings, limit: limit,
                    target: .ratio(1.05))
            ]
        },
        footnote: { _ in
            "and-vs-two-conditions: both sides are the library; the target is ≤ 1.05× the two conditions added separately."
        })
}
