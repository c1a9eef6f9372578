extension Scenario {
    /// The library's fixed cost per operation on its own queue, against Foundation's
    /// `BlockOperation` on Foundation's queue, and against the Operation floor (``operationFloor``).
    static let noopConditionalQueue = Scenario(
        name: "noop-conditional-queue",
        summary:
            "no-op operations: BlockOperation {} on OperationQueue vs ConditionalOperation on ConditionalOperationQueue",
        defaultSizes: [100_000],
        measure: { n, settings, limit in
            [
                TimedComparison(matchup: Matchup(shape: .independent, ours: .noopOnConditionalQueue))
                    .run(
                        label: "noop-cond-queue", n: n, settings: settings, limit: limit, target: .ratio(0.5))
            ] + OperationFloor.rows(n: n, settings: settings, limit: limit)
        },
        footnote: { _ in
            "noop-cond-queue: the targets are ≤ 0.5× Foundation and, on the next row, ≤ 1.25× the Operation floor. "
                + OperationFloor.footnote
        })

    /// A chain on `ConditionalOperationQueue`, which keeps waiting operations out of Foundation's
    /// queue: linear where Foundation is quadratic. Foundation's side runs only up to 10k
    /// (about 8 s there; 50k takes about 290 s).
    static let chainConditionalQueue = Scenario(
        name: "chain-conditional-queue",
        summary:
            "chain of dependent operations: BlockOperation on OperationQueue vs ConditionalOperationQueue",
        defaultSizes: [2_000, 10_000, 50_000],
        timeLimit: Scenario.quadraticLimit,
        measure: { n, settings, limit in
            var settings = settings
            if n > 10_000 { settings.sides = settings.sides.filter { $0 == .ours } }
            return [
                TimedComparison(
                    matchup: Matchup(shape: .chain, ours: .noopOnConditionalQueue),
                    warmupSize: { min($0, 1_000) }
                )
                .run(label: "chain-cond-queue", n: n, settings: settings, limit: limit, target: nil)
            ]
        },
        footnote: { rows in
            "chain-cond-queue: the target is ≤ 0.06 s for 10k and, for 50k, ≤ 5.5× the 10k time."
        })

    /// One exclusivity category on `ConditionalOperationQueue`, against Foundation's serial queue.
    static let exclusiveConditionalQueue = Scenario(
        name: "exclusive-conditional-queue",
        summary:
            "operations in one exclusivity category on ConditionalOperationQueue vs BlockOperations on a serial OperationQueue",
        defaultSizes: [10_000, 50_000],
        measure: { n, settings, limit in
            [
                TimedComparison(
                    matchup: Matchup(
                        shape: .independent, foundation: .blockOperationOnSerialQueue,
                        ours: .exclusiveOnConditionalQueue)
                )
                .run(label: "exclusive-cond-queue", n: n, settings: settings, limit: limit, target: nil)
            ]
        },
        footnote: { _ in
            "exclusive-cond-queue: the target is ≤ 4 µs per operation and ≤ 1.0× Foundation's serial queue, "
                + "linear in n."
        })

    /// One category with `limit: 4` on `ConditionalOperationQueue`, against Foundation's queue of 4.
    static let limitedConditionalQueue = Scenario(
        name: "limited-conditional-queue",
        summary:
            "operations in one category with limit 4 on ConditionalOperationQueue vs BlockOperations on an OperationQueue running 4 at once",
        defaultSizes: [10_000],
        measure: { n, settings, limit in
            [
                TimedComparison(
                    matchup: Matchup(
                        shape: .independent, foundation: .blockOperationOnQueueOfFour,
                        ours: .limitedOnConditionalQueue)
                )
                .run(label: "limit-4-cond-queue", n: n, settings: settings, limit: limit, target: .ratio(1.0))
            ]
        },
        footnote: { _ in
            "limit-4-cond-queue: the target is ≤ 1.0× Foundation's queue with maxConcurrentOperationCount = 4."
        })

    /// One exclusivity category on a plain `OperationQueue`: waiting operations stay in Foundation's
    /// queue, whose scheduling pass walks them all (quadratic); the library must add nothing to it.
    static let exclusivePlain = Scenario(
        name: "exclusive-plain",
        summary:
            "operations in one exclusivity category on a plain OperationQueue vs BlockOperations on a serial OperationQueue",
        defaultSizes: [2_000, 10_000],
        timeLimit: Scenario.quadraticLimit,
        measure: { n, settings, limit in
            [
                TimedComparison(
                    matchup: Matchup(
                        shape: .independent, foundation: .blockOperationOnSerialQueue,
                        ours: .exclusiveOnPlainQueue),
                    warmupSize: { min($0, 1_000) }
                )
                .run(label: "exclusive-plain", n: n, settings: settings, limit: limit, target: nil)
            ]
        })
}
