import Foundation

/// Collects the results of the count operations, from any thread.
///
/// The operations only hold it in a `let`; its mutable state lives behind a lock (`Protected`),
/// which is what makes it `Sendable` without `@unchecked`.
final class WordTally: Sendable {
    /// The words and lines of one file.
    struct FileCount: Sendable {
        let path: String
        let words: Int
        let lines: Int
    }

    /// A file that could not be counted, with why.
    struct Failure: Sendable {
        let path: String
        let reasons: [String]
    }

    /// Everything recorded so far.
    struct Snapshot: Sendable {
        var counts: [FileCount] = []
        var failures: [Failure] = []

        var totalWords: Int { counts.reduce(0) { $0 + $1.words } }
        var totalLines: Int { counts.reduce(0) { $0 + $1.lines } }
    }

    private let state = Protected(Snapshot())

    func record(_ count: FileCount) {
        state.withLock { $0.counts.append(count) }
    }

    func recordFailure(path: String, errors: [any Error]) {
        let failure = Failure(path: path, reasons: errors.map { String(describing: $0) })
        state.withLock { $0.failures.append(failure) }
    }

    func snapshot() -> Snapshot {
        state.withLock { $0 }
    }
}
