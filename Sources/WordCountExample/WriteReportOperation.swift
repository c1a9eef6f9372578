import ConditionalOperations

/// Prints the report once every count operation finished.
///
/// A count that failed does not stop the report (as in Foundation, a dependency that failed still
/// lets its dependents run): the report lists the failures.
final class WriteReportOperation: ConditionalOperation, @unchecked Sendable {
    // Immutable stored properties only (see CountWordsOperation).
    private let tally: WordTally
    private let folder: String
    private let listing: Int

    /// A report on `tally` that lists the `listing` largest files, run after every operation of `counts`.
    init(tally: WordTally, folder: String, listing: Int, after counts: [CountWordsOperation]) {
        self.tally = tally
        self.folder = folder
        self.listing = listing
        super.init()
        name = "write report"
        // Anything else that writes a report to standard output waits its turn (conditions come
        // before dependencies: adding a dependency may already ask `isReady`).
        addCondition(MutuallyExclusive(category: Self.standardOutput))
        for count in counts { addDependency(count) }
    }

    /// The exclusivity category of every operation that prints to standard output at length.
    static let standardOutput = "standard output"

    override func execute() {
        print(ReportFormatter(folder: folder, listing: listing).report(tally.snapshot()))
        finish()
    }
}
