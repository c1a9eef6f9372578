import ConditionalOperations
import Foundation

/// Counts the words of every text file in a folder, showing on the way each thing the library
/// does, in numbered sections.
///
///     swift run WordCountExample [folder] [--graph FILE] [--timeline FILE]
///
/// The folder defaults to the package's own `Sources/`. With `--graph FILE`, the graph of the
/// operations as they ended is written to FILE: Mermaid if it ends in `.mmd` or `.md`, Graphviz
/// DOT otherwise. With `--timeline FILE`, the queue records the run (`OperationTimeline`) and it
/// is written to FILE: Trace Event JSON if it ends in `.json` (Perfetto opens it), an HTML page
/// otherwise. The operations, on one `ConditionalOperationQueue`:
///
///     GroupOperation per folder ──▶ FolderSummaryOperation ─┐
///     (a CountWordsOperation        (category "report")     ├─▶ AsyncOperation "format report"
///      per file of the folder)                              │
///     …                         ──▶ …                      ─┘
///
///     CountWordsOperation of a path that does not exist, on purpose   (1. a failed condition)
///     an AsyncOperation that never finishes by itself (StalledRead)    (6. a timeout)
///     WriteReportOperation, held back by a GoAheadCondition            (7. a diagnostic report)
///
/// The program waits for each step with `await`, so that each section prints what it shows
/// once it happened; the operations of a step run side by side.
@main
struct WordCountApp {
    /// How many files get their transitions printed; the others are only counted.
    /// One: the lines of several files, each printed whole, would show times going backwards
    /// (the files run at the same time).
    static let filesShownInDetail = 1
    /// How many files the report lists by name.
    static let filesInReport = 10
    /// How many operations the queue runs at the same time.
    static let concurrentOperations = 4
    /// How long one file may take to count.
    static let countTimeout: Duration = .seconds(10)
    /// How long the stalled read may take.
    static let stalledReadTimeout: Duration = .milliseconds(200)

    static func main() async {
        let log = TransitionLog()  // the program's clock starts here
        let options: CommandLineOptions
        let folder: ScannedFolder
        do {
            options = try CommandLineOptions(arguments: CommandLine.arguments)
            folder = try ScannedFolder(arguments: options.folderArguments)
        } catch {
            Console.exit(because: error)
        }
        let folders = TopLevelFolder.grouping(TextFileScanner.textFiles(in: folder), in: folder)
        let queue = ConditionalOperationQueue()
        queue.name = "word count"
        queue.maxConcurrentOperationCount = concurrentOperations
        let timeline = options.timelinePath.map { _ in OperationTimeline() }
        queue.timeline = timeline
        let tally = WordTally()

        // Counting: a CountWordsOperation per file, each folder's in a GroupOperation; a path that
        // does not exist; a read that never ends. All added at once, they run side by side.
        let missing = count(TextFile.missingOnPurpose(in: folder), tally, log, keepsLines: true)
        var filesToShow = filesShownInDetail
        let counts = folders.map { folder in
            folder.files.map { file in
                defer { filesToShow -= 1 }
                return count(file, tally, log, keepsLines: filesToShow > 0)
            }
        }
        let groups = zip(folders, counts).map { folder, counts in
            let group = GroupOperation(operations: counts)
            group.name = "count \(folder.displayName)/"
            return group
        }
        // Asked for before the groups run, so that each counts its children as they finish.
        let progresses = groups.map(\.progress)
        let stalledRead = StalledRead.operation(timeout: stalledReadTimeout)
        stalledRead.addObserver(TransitionObserver(log: log, keepsLines: true))

        let fileCount = counts.reduce(0) { $0 + $1.count }
        print(
            "Counting the words of \(fileCount) text files under \(folder.displayName)/: a CountWordsOperation"
        )
        print(
            "per file, each folder's in a GroupOperation (\(Console.counted(groups.count, "group"))), on a ConditionalOperationQueue"
        )
        print("that runs \(concurrentOperations) operations at a time.")
        queue.addOperation(missing)
        queue.addOperation(stalledRead)
        for group in groups { queue.addOperation(group) }
        await missing.untilFinished()
        for group in groups { await group.untilFinished() }

        Console.section("1. Conditions")
        print("A count executes only if its condition \"file is readable\" holds. One path does not exist,")
        print("on purpose: its count finished without executing (no didStart), with the failure:")
        Console.printLines(log.lines(of: missing))
        Console.expect(
            missing.errors.contains { $0 as? OperationError == .conditionFailed(name: "file is readable") },
            "the condition failed")

        Console.section("2. Observers")
        print(
            "A TransitionObserver on every count records what it sees; here the first file's:"
        )
        Console.printLines(counts.joined().prefix(filesShownInDetail).flatMap { log.lines(of: $0) })
        print("  \(log.summaryOfHiddenLines())")

        Console.section("3. Exclusivity")
        let category = FolderSummaryOperation.category
        let rate = FolderSummaryOperation.rateLimit
        print("A FolderSummaryOperation per folder, each with MutuallyExclusive(category: \"\(category)\")")
        print("and RateLimit(\"\(rate.limitName)\", permits: \(rate.permits), per: .milliseconds(100)):")
        let overlap = OverlapCounter()
        let starts = StartTimes()
        let summaries = zip(folders, groups).map { folder, group in
            FolderSummaryOperation(
                folder: folder, tally: tally, overlap: overlap, starts: starts, after: group)
        }
        let formatter = ReportFormatter(folder: folder.displayName, listing: filesInReport)
        let formatReport = AsyncOperation(name: "format report") { formatter.report(tally.snapshot()) }
        for summary in summaries { formatReport.addDependency(summary) }
        // Added one by one, each asks for the category as it is added: they run in this order.
        for summary in summaries { queue.addOperation(summary) }
        let report: String
        do {
            report = try await queue.run(formatReport)
        } catch {
            Console.exit(because: error)
        }
        print(
            "exclusive '\(category)': \(Console.counted(overlap.entered, "operation")), never more than \(overlap.mostAtOnce) at once"
        )
        Console.expect(overlap.mostAtOnce <= 1, "the summaries never overlapped")
        let kept = starts.keep(permits: rate.permits, per: rate.interval)
        print(
            "rate limit '\(rate.limitName)': \(Console.counted(starts.count, "operation")), at most \(rate.permits) "
                + "starting per 0.1 s: the last started " + String(format: "%.2f s", starts.span)
                + " after they were added")
        Console.expect(kept, "the summaries kept to the rate limit")

        Console.section("4. Groups")
        print("Each folder's counts ran in a GroupOperation; group.progress adds up its children's:")
        for (group, progress) in zip(groups, progresses) {
            let percent = Int(progress.fractionCompleted * 100)
            print(
                "  \(group.name ?? "group"): finished, progress"
                    + " \(progress.completedUnitCount)/\(progress.totalUnitCount) (\(percent)%)")
        }

        Console.section("5. Async work")
        print("AsyncOperation 'format report' ran after the summaries, its dependencies;")
        print(
            "`try await queue.run(formatReport)` returned its value: the report section 7 prints.")

        Console.section("6. Cancellation")
        print("'\(stalledRead.name ?? "")' never finishes by itself;")
        let milliseconds = Int(stalledReadTimeout / .milliseconds(1))
        print(
            "TimeoutObserver(timeout: .milliseconds(\(milliseconds))) cancelled it with OperationError.timedOut:"
        )
        await stalledRead.untilFinished()
        Console.printLines(log.lines(of: stalledRead))
        let seconds = stalledReadTimeout / .seconds(1)
        Console.expect(
            stalledRead.errors.contains { $0 as? OperationError == .timedOut(seconds) },
            "the stalled read timed out")

        Console.section("7. Diagnostics")
        let goAhead = GoAheadCondition()
        let write = WriteReportOperation(text: report, goAhead: goAhead)
        // A safety net: should the go-ahead never come, the program ends instead of hanging.
        write.addDeadline(after: .seconds(10))
        queue.addOperation(write)
        await goAhead.asked()
        print("'\(write.name ?? "")' waits for a condition of the program's own, \"\(goAhead.name)\".")
        print("queue.diagnosticReport says:")
        print(queue.diagnosticReport)
        print("Then the go-ahead is given, and '\(write.name ?? "")' prints the report:\n")
        goAhead.give()
        await write.untilFinished()
        Console.expect(!write.failed, "the report was written")

        Console.section("8. Graph")
        var operations: [ConditionalOperation] = [missing, stalledRead]
        operations += groups
        operations += counts.flatMap { $0 }
        operations += summaries
        operations += [formatReport, write]
        if let graphFile = options.graphFile {
            do {
                try graphFile.write(OperationGraph(operations, limit: operations.count))
            } catch {
                Console.exit(because: error)
            }
            print(
                "Graph of the \(operations.count) operations (OperationGraph) written to \(graphFile.path)"
                    + " (\(graphFile.format.rawValue)).")
        } else {
            print(
                "With --graph FILE, the graph of the \(operations.count) operations (OperationGraph) is written to FILE."
            )
        }
        if let timeline, let path = options.timelinePath {
            writeTimeline(timeline, to: path)
        }
        print("Done in \(log.elapsed(sign: false)).")
    }

    /// Writes the run's timeline: Trace Event JSON for a `.json` file, the HTML page otherwise.
    private static func writeTimeline(_ timeline: OperationTimeline, to path: String) {
        let isJSON = path.hasSuffix(".json")
        do {
            if isJSON {
                try timeline.traceEventJSON().write(to: URL(fileURLWithPath: path))
            } else {
                try timeline.html().write(toFile: path, atomically: true, encoding: .utf8)
            }
        } catch {
            Console.exit(because: error)
        }
        print(
            "Timeline of the \(timeline.operationCount) operations the queue ran (OperationTimeline) written to "
                + "\(path) (\(isJSON ? "Trace Event JSON" : "HTML")), \(timeline.warnings.count) warning(s).")
    }

    /// A count of `file`, with a `TransitionObserver` and a `TimeoutObserver`.
    private static func count(_ file: TextFile, _ tally: WordTally, _ log: TransitionLog, keepsLines: Bool)
        -> CountWordsOperation
    {
        let operation = CountWordsOperation(file: file, tally: tally)
        operation.addObserver(TransitionObserver(log: log, keepsLines: keepsLines))
        // A file that takes too long to read (a stalled network mount, as in section 6) is
        // cancelled, reported with OperationError.timedOut, and does not hold up the others.
        operation.addObserver(TimeoutObserver(timeout: countTimeout))
        return operation
    }
}
