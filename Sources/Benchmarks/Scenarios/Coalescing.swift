extension Scenario {
    /// S27: an operation without a coalescing key pays nothing for coalescing; one with a key pays
    /// a lookup, and one that joins another does not execute. Each row against Foundation's
    /// `BlockOperation` on Foundation's queue, as `noop-conditional-queue` (the no-key row).
    static let coalescing = Scenario(
        name: "coalescing",
        summary:
            "no-op operations on ConditionalOperationQueue: without a key, each with its own key, all with one key",
        defaultSizes: [100_000],
        measure: { n, settings, limit in
            [
                ("coalescing (no key)", Contender.noopOnConditionalQueue),
                ("coalescing (own keys)", .uniqueKeyOnConditionalQueue),
                ("coalescing (one key)", .sharedKeyOnConditionalQueue),
            ].map { label, ours in
                TimedComparison(matchup: Matchup(shape: .independent, ours: ours))
                    .run(label: label, n: n, settings: settings, limit: limit, target: nil)
            }
        },
        footnote: { _ in
            "coalescing: the no-key row costs what noop-cond-queue costs (an operation without a key pays no "
                + "memory and no lock trip for coalescing)."
        })
}
