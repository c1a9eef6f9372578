import Foundation
import Testing

@testable import ConditionalOperations
@testable import ConditionalOperationsMachines

extension ConditionalOperationsTests {
    /// The Lifecycle article's tables "Cancellation from each state" and "Finishing from each
    /// state" say what the machine does: for every phase of the machine's table tests, the public
    /// state a cancel or a finish leaves it in is the one the row of its state names in the column
    /// "Becomes" (a cell starting with "unchanged" means the state does not change), and every
    /// state a cell names is reached from some phase.
    @Suite struct LifecycleTablesTests {
        typealias Given = OperationStateMachineTableTests.Given

        static let article = "Sources/ConditionalOperations/ConditionalOperations.docc/Lifecycle.md"

        /// One row: the states of its first cell, and its "Becomes" cell.
        struct Row {
            let states: Set<String>
            let becomes: Set<String>
            let isUnchanged: Bool
        }

        static let stateNames = Set(
            (0...6).compactMap { ConditionalOperation.State(rawValue: $0) }.map { "\($0)" })

        /// The state names written in code spans in `cell`.
        static func states(in cell: Substring) -> Set<String> {
            let spans = cell.split(separator: "`", omittingEmptySubsequences: false).enumerated()
                .filter { !$0.offset.isMultiple(of: 2) }.map { String($0.element) }
            return Set(spans).intersection(stateNames)
        }

        /// The rows of the table whose header starts with `header`.
        static func table(_ header: String) throws -> [Row] {
            let lines = try DocumentationSamplesTests.read(article)
            let start = try #require(lines.firstIndex { $0.hasPrefix("| \(header)") }, "no table \(header)")
            return lines[(start + 2)...].prefix { $0.hasPrefix("|") }.map { line in
                let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
                return Row(
                    states: states(in: Substring(cells[0])), becomes: states(in: Substring(cells[1])),
                    isUnchanged: cells[1].hasPrefix("unchanged"))
            }
        }

        /// Checks the outcome of each of `events` from every phase against `rows`.
        static func check(
            _ rows: [Row], _ events: [(inout Machine) -> Void],
            sourceLocation: SourceLocation = #_sourceLocation
        ) {
            var reached: [Int: Set<String>] = [:]
            for event in events {
                for given in Given.allCases {
                    var machine = OperationStateMachineTableTests.machine(given)
                    let before = "\(machine.state)"
                    event(&machine)
                    let after = "\(machine.state)"
                    guard let index = rows.firstIndex(where: { $0.states.contains(before) }) else {
                        Issue.record("no row for \(before) (\(given))", sourceLocation: sourceLocation)
                        continue
                    }
                    reached[index, default: []].insert(after)
                    let row = rows[index]
                    #expect(
                        row.becomes.contains(after) && (!row.isUnchanged || after == before),
                        "\(given): \(before) becomes \(after), the row says \(row.becomes.sorted())",
                        sourceLocation: sourceLocation)
                }
            }
            for (index, row) in rows.enumerated() where !row.isUnchanged {
                #expect(
                    row.becomes.isSubset(of: reached[index, default: []]),
                    "the row of \(row.states.sorted()) names \(row.becomes.sorted()), reached: \(reached[index, default: []].sorted())",
                    sourceLocation: sourceLocation)
            }
        }

        @Test func theCancellationTableIsTheMachines() throws {
            let rows = try Self.table("State when cancelled")
            #expect(rows.count == 5)
            Self.check(
                rows,
                [
                    { _ = $0.cancel(finishesWhenCancelled: true) },
                    { _ = $0.cancel(finishesWhenCancelled: false) },
                ])
        }

        @Test func theFinishingTableIsTheMachines() throws {
            let rows = try Self.table("State when `finish` is called")
            #expect(rows.count == 5)
            Self.check(rows, [{ _ = $0.finish(errors: [TestError(1)]) }])
        }
    }
}
