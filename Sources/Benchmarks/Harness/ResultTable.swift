import Foundation

/// Prints the rows as one aligned text table, with what a reader needs to interpret it.
struct ResultTable {
    var rows: [Row]
    var settings: Settings
    var footnotes: [String] = []

    private static let header = [
        "scenario", "n", "Foundation", "ours", "ours/F", "µs/op F", "µs/op ours", "extra heap/op", "target",
    ]
    /// Text columns are left-aligned, figures right-aligned.
    private static let leftAligned: Set<Int> = [0, 8]

    func render() -> String {
        let cells = [Self.header] + rows.map(Self.cells)
        let widths = Self.header.indices.map { column in cells.map { $0[column].count }.max() ?? 0 }
        let lines = cells.map { line in
            line.indices.map { column in
                let padding = String(repeating: " ", count: widths[column] - line[column].count)
                return Self.leftAligned.contains(column) ? line[column] + padding : padding + line[column]
            }.joined(separator: "  ")
        }
        let rule = String(repeating: "-", count: lines[0].count)
        var text = [Machine.description, rule, lines[0], rule] + lines.dropFirst() + [rule]
        text.append(
            "times: median of \(settings.rounds) rounds per side, run alternately after a warm-up; "
                + "each round times create + wire + add + run to completion on a fresh plain OperationQueue.")
        text.append("ours/F: median of the rounds' own ratios (both sides of a round run back to back).")
        text.append(
            "extra heap/op: ours − Foundation; timed rows: heap still held per finished operation; "
                + "memory rows: heap per live pending operation (mallinfo2).")
        for row in rows {
            switch row.figures {
            case .stalled(let message): text.append("STALLED \(row.label) n=\(row.n): \(message)")
            case .failed(let message): text.append("FAILED \(row.label) n=\(row.n): \(message)")
            case .unavailable(let message): text.append("n/a \(row.label) n=\(row.n): \(message)")
            case .time, .memory: break
            }
        }
        text += footnotes
        return text.joined(separator: "\n")
    }

    private static func cells(_ row: Row) -> [String] {
        let verdict: String = {
            guard let target = row.target else { return "" }
            switch target.isMet(by: row.figures) {
            case true?: return "\(target.description): met"
            case false?: return "\(target.description): MISSED"
            case nil: return target.description
            }
        }()
        let lead = [row.label, "\(row.n)"]
        switch row.figures {
        case .time(let foundation, let ours, let ratio, let operations, let extra):
            return lead + [
                foundation.map(Format.seconds) ?? "skipped", ours.map(Format.seconds) ?? "skipped",
                ratio.map(Format.ratio) ?? "—",
                foundation.map { Format.microsecondsPerOperation($0, operations) } ?? "—",
                ours.map { Format.microsecondsPerOperation($0, operations) } ?? "—",
                extra.map(Format.signedBytes) ?? "n/a", verdict,
            ]
        case .memory(let foundation, let ours):
            let extra = foundation.flatMap { foundation in ours.map { $0 - foundation } }
            return lead + [
                foundation.map { Format.bytes($0) + "/op" } ?? "skipped",
                ours.map { Format.bytes($0) + "/op" } ?? "skipped",
                foundation.flatMap { foundation in ours.map { Format.ratio($0 / foundation) } } ?? "—",
                "—", "—", extra.map(Format.signedBytes) ?? "n/a", verdict,
            ]
        case .stalled:
            return lead + ["STALLED", "STALLED", "—", "—", "—", "—", verdict]
        case .failed:
            return lead + ["FAILED", "FAILED", "—", "—", "—", "—", verdict]
        case .unavailable:
            return lead + ["n/a", "n/a", "—", "—", "—", "n/a", verdict]
        }
    }
}
