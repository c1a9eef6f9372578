import ConditionalOperations
import Foundation

/// Counts the words and lines of one file and hands the result to a ``WordTally``.
///
/// It only executes if its "file is readable" condition holds; otherwise it finishes without
/// executing, with `OperationError.conditionFailed(name: "file is readable")` in its errors.
final class CountWordsOperation: ConditionalOperation, @unchecked Sendable {
    // `@unchecked Sendable` is a promise the compiler does not check: every stored property of this
    // subclass is a `let` of a Sendable type, and the mutable results live in the lock-protected tally.
    let file: TextFile
    private let tally: WordTally

    init(file: TextFile, tally: WordTally) {
        self.file = file
        self.tally = tally
        super.init()
        name = "count \(file.displayPath)"
        let path = file.url.path
        addCondition(
            BlockCondition(name: "file is readable") {
                FileManager.default.isReadableFile(atPath: path)
            })
    }

    override func execute() {
        let text: String
        do {
            let data = try Data(contentsOf: file.url)
            guard let decoded = String(data: data, encoding: .utf8) else {
                finish(error: WordCountError.notUTF8Text)
                return
            }
            text = decoded
        } catch {
            finish(error: error)
            return
        }
        // A cancelled operation has already finished (finishesWhenCancelled is true): stop here.
        guard !isCancelled else { return }

        let words = text.split(whereSeparator: \.isWhitespace).count
        let newlines = text.utf8.reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        let lines = newlines + (text.utf8.last.map { $0 == UInt8(ascii: "\n") ? 0 : 1 } ?? 0)
        tally.record(WordTally.FileCount(path: file.displayPath, words: words, lines: lines))
        finish()
    }

    /// Runs once, whether the operation executed or not: a failed condition arrives here too.
    override func finished(errors: [any Error]) {
        if !errors.isEmpty { tally.recordFailure(path: file.displayPath, errors: errors) }
    }
}
