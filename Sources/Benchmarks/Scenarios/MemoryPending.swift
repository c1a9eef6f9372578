extension Scenario {
    /// Heap per live pending operation with 1 condition and 1 observer, against an empty
    /// `BlockOperation`: what a large backlog of work costs.
    static let memory = Scenario(
        name: "memory",
        summary: "heap per live pending operation (1 condition, 1 observer) vs BlockOperation {}",
        defaultSizes: [100_000],
        measure: { n, settings, limit in
            let matchup = Matchup(shape: .independent, ours: .withConditionAndObserver)
            let target = Target.extraBytes(300)
            return [
                MemoryComparison(matchup: matchup, placement: .notEnqueued)
                    .run(
                        label: "memory (not enqueued)", n: n, settings: settings, limit: limit, target: target
                    ),
                MemoryComparison(matchup: matchup, placement: .suspendedQueue)
                    .run(
                        label: "memory (suspended queue)", n: n, settings: settings, limit: limit,
                        target: target),
            ]
        })
}
