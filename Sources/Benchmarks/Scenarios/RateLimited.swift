import ConditionalOperations

extension Scenario {
    /// One rate limit that never makes anyone wait, against one category with `limit: 4`: taking a
    /// permit costs no more than taking a limited category.
    static let rateLimitedConditionalQueue = Scenario(
        name: "rate-limited-conditional-queue",
        summary:
            "operations under one RateLimit with a rate never reached vs one category with limit 4, both on ConditionalOperationQueue",
        defaultSizes: [10_000],
        measure: { n, settings, limit in
            [
                TimedComparison(
                    matchup: Matchup(
                        shape: .independent, foundation: .limitedOnConditionalQueue,
                        ours: .rateLimitedOnConditionalQueue)
                )
                .run(
                    label: "rate-limit-vs-limit-4", n: n, settings: settings, limit: limit,
                    target: .ratio(1.0))
            ]
        },
        footnote: { _ in
            "rate-limit-vs-limit-4: both sides are the library; the target is ≤ 1.0× the category with limit 4."
        })
}

extension Contender {
    /// The rate limit of ``rateLimitedOnConditionalQueue``: a billion a second, never reached.
    static let benchmarkRateLimit = RateLimit("benchmark rate", permits: 1_000_000_000, per: .seconds(1))

    /// The library, all operations under one rate limit that never makes them wait, on a
    /// `ConditionalOperationQueue`.
    static let rateLimitedOnConditionalQueue = Contender(
        make: {
            let operation = NoopOperation()
            operation.addCondition(benchmarkRateLimit)
            return operation
        },
        queue: .conditional)
}
