extension Scenario {
    /// S36: what recording an `OperationTimeline` costs a no-op operation on the library's queue,
    /// against the same queue without one (the "Foundation" side of this row).
    static let timeline = Scenario(
        name: "timeline",
        summary:
            "no-op operations on ConditionalOperationQueue with an OperationTimeline attached vs without one",
        defaultSizes: [100_000],
        measure: { n, settings, limit in
            [
                TimedComparison(
                    matchup: Matchup(
                        shape: .independent, foundation: .noopOnConditionalQueue,
                        ours: .noopOnRecordedConditionalQueue)
                )
                .run(label: "timeline", n: n, settings: settings, limit: limit, target: .ratio(1.3))
            ]
        },
        footnote: { _ in
            "timeline: the baseline side is the same ConditionalOperationQueue without a timeline; the target is "
                + "≤ 1.3× it."
        })
}
