/// Turns a ``WordTally/Snapshot`` into the text of the report.
struct ReportFormatter {
    let folder: String
    /// How many files are listed by name, largest first.
    let listing: Int

    func report(_ tally: WordTally.Snapshot) -> String {
        let ranked = tally.counts.sorted { ($0.words, $1.path) > ($1.words, $0.path) }
        let width = max(5, String(tally.totalWords).count)
        var lines = ["── Word count report for \(folder)/ ──"]

        if ranked.isEmpty {
            lines.append("No text files (.swift, .md, .txt) were counted.")
        } else {
            lines.append("Top \(min(listing, ranked.count)) of \(ranked.count) files by word count:")
            lines.append("   #  \(pad("words", width))   lines  file")
            for (rank, file) in ranked.prefix(listing).enumerated() {
                lines.append(
                    "\(pad(rank + 1, 4))  \(pad(file.words, width))  \(pad(file.lines, 6))  \(file.path)")
            }
            if ranked.count > listing {
                let rest = ranked.dropFirst(listing)
                let restWords = rest.reduce(0) { $0 + $1.words }
                let restLines = rest.reduce(0) { $0 + $1.lines }
                lines.append(
                    "      \(pad(restWords, width))  \(pad(restLines, 6))  in the other \(rest.count) files")
            }
        }
        lines.append(
            "Total: \(tally.totalWords) words, \(tally.totalLines) lines in \(ranked.count) files.")

        if !tally.failures.isEmpty {
            lines.append("Not counted (\(tally.failures.count)):")
            for failure in tally.failures.sorted(by: { $0.path < $1.path }) {
                lines.append("  \(failure.path): \(failure.reasons.joined(separator: "; "))")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// `value` right-aligned in `width` characters.
    private func pad(_ value: some CustomStringConvertible, _ width: Int) -> String {
        let text = value.description
        return String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
