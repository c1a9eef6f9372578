import ConditionalOperations

/// Prints one line about a folder: how many files, words and lines its group counted.
///
/// Every summary takes the exclusivity category ``category``: the queue could run several at once,
/// but they take turns at standard output, in the order they asked for it (first come, first
/// served), so their lines come out in the order the summaries were added to the queue. They also
/// share the rate limit ``rateLimit``: at most 4 of them start within any 100 ms, the others wait
/// for a permit, holding no thread and no queue slot.
final class FolderSummaryOperation: ConditionalOperation, @unchecked Sendable {
    // Immutable stored properties only (see CountWordsOperation).
    private let folder: TopLevelFolder
    private let tally: WordTally
    private let overlap: OverlapCounter
    private let starts: StartTimes

    /// The category every summary shares.
    static let category = "report"

    /// The rate limit every summary shares: one object, kept in one place (a name has one rate).
    static let rateLimit = RateLimit("summaries", permits: 4, per: .milliseconds(100))

    /// A summary of `folder`, run after `group` (which counts the folder's files) finished;
    /// `overlap` is told when it starts and stops printing, `starts` when it starts.
    init(
        folder: TopLevelFolder, tally: WordTally, overlap: OverlapCounter, starts: StartTimes,
        after group: GroupOperation
    ) {
        self.folder = folder
        self.tally = tally
        self.overlap = overlap
        self.starts = starts
        super.init()
        name = "summarize \(folder.displayName)/"
        // Conditions before dependencies (adding a dependency may already ask `isReady`).
        addCondition(MutuallyExclusive(category: Self.category))
        addCondition(Self.rateLimit)
        addDependency(group)
    }

    override func execute() {
        starts.record()
        overlap.enter()
        let paths = Set(folder.files.map(\.displayPath))
        let snapshot = tally.snapshot()
        let counted = snapshot.counts.filter { paths.contains($0.path) }
        let failed = snapshot.failures.filter { paths.contains($0.path) }.count
        let words = counted.reduce(0) { $0 + $1.words }
        let lines = counted.reduce(0) { $0 + $1.lines }
        print(
            "  \(folder.displayName)/: \(Console.counted(counted.count, "file")), \(words) words, \(lines) lines"
                + (failed > 0 ? ", \(failed) not counted" : ""))
        overlap.leave()
        finish()
    }
}
