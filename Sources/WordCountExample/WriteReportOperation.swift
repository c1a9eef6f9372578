import ConditionalOperations

/// Prints the report, once the program gives the go-ahead.
final class WriteReportOperation: ConditionalOperation, @unchecked Sendable {
    // Immutable stored properties only (see CountWordsOperation).
    private let text: String

    /// Prints `text` once `goAhead` is given.
    init(text: String, goAhead: GoAheadCondition) {
        self.text = text
        super.init()
        name = "write report"
        addCondition(goAhead)
    }

    override func execute() {
        print(text)
        finish()
    }
}
