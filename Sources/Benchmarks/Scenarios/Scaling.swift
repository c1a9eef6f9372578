import Foundation

extension Scenario {
    /// noop-plain at growing sizes: µs per operation should stay flat; growth means a cost
    /// that is not linear.
    static let scaling = Scenario(
        name: "scaling",
        summary: "noop-plain at 1k, 10k and 100k operations: µs per operation should stay flat",
        defaultSizes: [1_000, 10_000, 100_000],
        measure: { n, settings, limit in
            [
                TimedComparison(matchup: Matchup(shape: .independent, ours: .noop))
                    .run(label: "scaling", n: n, settings: settings, limit: limit, target: nil)
            ]
        },
        footnote: { rows in
            let perOperation: [(n: Int, foundation: Double, ours: Double)] = rows.compactMap { row in
                guard case .time(let foundation?, let ours?, _, let operations, _) = row.figures else {
                    return nil
                }
                return (row.n, foundation.seconds / Double(operations), ours.seconds / Double(operations))
            }
            guard let first = perOperation.first, let last = perOperation.last, first.n != last.n else {
                return nil
            }
            return String(
                format: "scaling: µs/op from n=%d to n=%d grows ×%.2f for Foundation, ×%.2f for ours",
                first.n, last.n, last.foundation / first.foundation, last.ours / first.ours)
        })
}
