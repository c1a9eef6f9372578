import ConditionalOperations
import Foundation

/// Counts the words of every text file in a folder with one operation per file, then writes a report.
///
///     swift run --scratch-path .build-example WordCountExample [folder] [--graph FILE]
///
/// The folder defaults to the package's own `Sources/`. With `--graph FILE`, the graph of the
/// operations as they ended is written to FILE: Mermaid if it ends in `.mmd` or `.md`, Graphviz
/// DOT otherwise. The workflow is a graph of operations on a plain `OperationQueue`:
///
///     CountWordsOperation (file 1) ─┐
///     CountWordsOperation (file 2) ─┼─▶ WriteReportOperation
///     …                             ─┘
///
/// Each count is guarded by a "file is readable" condition and a `TimeoutObserver`; the report is
/// `MutuallyExclusive` with other writers of standard output; a `TransitionObserver` on every
/// operation prints its state transitions.
@main
struct WordCountApp {
    /// How many files get their transitions printed; the others are only counted.
    static let filesShownInDetail = 10
    /// How many files the report lists by name.
    static let filesInReport = 10
    /// How many files are read at the same time.
    static let concurrentCounts = 4
    /// How long one file may take to count, in seconds.
    static let countTimeout: TimeInterval = 10

    static func main() async {
        let log = TransitionLog()  // the program's clock starts here

        let options: CommandLineOptions
        let folder: ScannedFolder
        do {
            options = try CommandLineOptions(arguments: CommandLine.arguments)
            folder = try ScannedFolder(arguments: options.folderArguments)
        } catch {
            FileHandle.standardError.write(Data("WordCountExample: \(error)\n".utf8))
            exit(1)
        }

        var files = TextFileScanner.textFiles(in: folder)
        let scannedCount = files.count
        // A demonstration: a path that does not exist, added on purpose, so that the output shows a
        // condition failing and its operation finishing without executing.
        files.insert(TextFile.missingOnPurpose(in: folder), at: 0)

        let tally = WordTally()
        let counts = files.enumerated().map { index, file in
            let operation = CountWordsOperation(file: file, tally: tally)
            operation.addObserver(TransitionObserver(log: log, printsLines: index < filesShownInDetail))
            // A file that takes too long to read (a stalled network mount) is cancelled, reported
            // with OperationError.timedOut, and does not hold up the report.
            operation.addObserver(TimeoutObserver(timeout: countTimeout))
            return operation
        }
        let report = WriteReportOperation(
            tally: tally, folder: folder.displayName, listing: filesInReport, after: counts)
        report.addObserver(TransitionObserver(log: log, printsLines: true))

        let queue = OperationQueue()
        queue.name = "word count"
        queue.maxConcurrentOperationCount = concurrentCounts

        print(
            "Counting words in \(scannedCount) text files under \(folder.displayName)/"
                + " (\(concurrentCounts) at a time),")
        print("plus 1 path that does not exist, added on purpose as a demonstration.")
        print("Transitions of the first \(min(filesShownInDetail, counts.count)) files and of the report:")
        for operation in counts { queue.addOperation(operation) }
        queue.addOperation(report)

        await report.waitUntilFinished()  // the library's async overload: holds no thread

        print(log.summaryOfHiddenLines())
        print("Done in \(log.elapsed(sign: false)).")

        if let graphFile = options.graphFile {
            // The report depends on every count: the graph from it shows them all.
            let graph = OperationGraph([report], limit: counts.count + 1)
            do {
                try graphFile.write(graph)
            } catch {
                FileHandle.standardError.write(Data("WordCountExample: \(error)\n".utf8))
                exit(1)
            }
            print(
                "Graph of the \(counts.count + 1) operations written to \(graphFile.path) (\(graphFile.format.rawValue))."
            )
        }
    }
}
