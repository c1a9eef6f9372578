import ConditionalOperations
import Dispatch
import Foundation

extension Scenario {
    /// Diagnostics must be cheap enough to ask at any time on a loaded queue (issue 15).
    static let diagnosis = Scenario(
        name: "diagnosis",
        summary:
            "diagnosticReport of a ConditionalOperationQueue holding n operations, each waiting for one unfinished dependency",
        defaultSizes: [10_000],
        measure: { n, settings, limit in
            guard settings.sides.contains(.ours) else { return [] }
            let queue = ConditionalOperationQueue()
            let gate = BlockOperation {}
            let waiting = (0..<n).map { _ in
                let operation = ConditionalOperation()
                operation.addCondition(BlockCondition { true })
                operation.addDependency(gate)
                return operation
            }
            queue.addOperations(waiting, waitUntilFinished: false)
            let clock = ContinuousClock()
            var fastest = Duration.seconds(3600)
            var lines = 0
            for _ in 0..<settings.rounds {
                let start = clock.now
                lines = queue.diagnosticReport.split(separator: "\n").count
                fastest = min(fastest, clock.now - start)
            }
            queue.addOperation(gate)
            queue.waitUntilAllOperationsAreFinished()
            guard lines == n + 1 else {
                return [Row(label: "diagnosis", n: n, failure: .failed("the report had \(lines) lines"))]
            }
            return [
                Row(
                    label: "diagnosis (report)", n: n,
                    figures: .time(
                        foundation: nil, ours: fastest, ratio: nil, operations: n, extraRetainedBytes: nil))
            ]
        },
        footnote: { _ in
            "diagnosis: the fastest of the rounds; the report reads every operation once, outside the library's locks."
        })
}
