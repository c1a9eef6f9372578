// Twins of the Swift samples in the doc comments of Sources/ConditionalOperations/Diagnostics,
// verbatim (DocumentationSamplesTests checks it), each with the stubs it needs around it: keep them
// the same.
import ConditionalOperations
import ConditionalOperationsTesting
import Foundation
import Testing

private final class QuickOperation: ConditionalOperation, @unchecked Sendable {
    override func execute() { finish() }
}

/// A stand-in for swift-log's `Logger`.
private struct Logger: Sendable {
    enum Level { case debug, warning }
    let label: String
    func log(level: Level, _ message: String) { print(label, level, message) }
    func warning(_ message: String) { log(level: .warning, message) }
}

private let logger = Logger(label: "diagnosis")

private final class ProgressView {
    var observedProgress: Progress?
}

extension ConditionalOperation {
    /// The work of `ResizeImages`, a member so that the sample's `let resize` does not hide it.
    fileprivate func resize(_ image: URL) {}
}

// ConditionalOperation.diagnosis
private func warnAboutSlowConditions(_ operation: ConditionalOperation) {
    if case .conditions(let unanswered, let waited) = operation.diagnosis.reason, waited > 30 {
        logger.warning("\(unanswered) never answered")
    }
}

// OperationGraph.mermaid
private func mermaidMarkdown(upload: ConditionalOperation, notify: ConditionalOperation) -> String {
    let markdown = "```mermaid\n\(OperationGraph([upload, notify]).mermaid)```\n"
    return markdown
}

// OperationLogger
private enum OperationLoggerSample {
    struct SwiftLogOperationLogger: OperationLogger {
        let logger: Logger
        func log(_ record: OperationLogRecord) {
            logger.log(level: record.isFailure ? .warning : .debug, "\(record)")
        }
    }

    static func attach(to queue: ConditionalOperationQueue) {
        queue.logger = SwiftLogOperationLogger(logger: Logger(label: "operations"))
    }
}

// OperationGraph: compiled, not run (it writes a file)
private func writeTheGraph(of queue: ConditionalOperationQueue) throws {
    let graph = OperationGraph(queue: queue)
    try graph.dot.write(toFile: "/tmp/queue.dot", atomically: true, encoding: .utf8)
    // dot -Tsvg /tmp/queue.dot -o queue.svg
}

// OperationGraph.dot: compiled, not run (it writes a file)
private func writeTheDOT(of queue: ConditionalOperationQueue) throws {
    try OperationGraph(queue: queue).dot.write(toFile: "queue.dot", atomically: true, encoding: .utf8)
    // then: dot -Tsvg queue.dot -o queue.svg
}

// ConditionalOperation.progress
private func resizeImages(urls: [URL], queue: OperationQueue, progressView: ProgressView)
    -> ConditionalOperation
{
    final class ResizeImages: ConditionalOperation, @unchecked Sendable {
        let images: [URL]
        init(images: [URL]) { self.images = images }
        override func execute() {
            progress.totalUnitCount = Int64(images.count)
            for image in images where !isCancelled {
                resize(image)
                progress.completedUnitCount += 1
            }
            finish()
        }
    }
    let resize = ResizeImages(images: urls)
    progressView.observedProgress = resize.progress  // a Cancel button cancels the operation
    queue.addOperation(resize)
    return resize
}

extension ConditionalOperationsTests {
    @Suite struct SymbolSamplesDiagnosticsTests {
        /// The sample warns only once the conditions waited more than 30 s: not for one that
        /// waits now, which the diagnosis names.
        @Test func aDiagnosisReason() async throws {
            let condition = ManualCondition(name: "sample-unanswered")
            let operation = QuickOperation()
            operation.addCondition(condition)
            ConditionalOperationQueue().addOperation(operation)
            try await condition.waitUntilEvaluated(timeout: .seconds(10))
            warnAboutSlowConditions(operation)
            guard case .conditions(let unanswered, let waited) = operation.diagnosis.reason else {
                Issue.record("not waiting for its condition: \(operation.diagnosis)")
                return
            }
            #expect(unanswered == ["sample-unanswered"] && waited < 30)
            #expect(!Printed.lines.contains { $0.contains("sample-unanswered") }, "warned too early")
            condition.answer(.satisfied)
            try await operation.untilFinished(timeout: .seconds(10))
        }

        @Test func aMermaidGraphInMarkdown() {
            let markdown = mermaidMarkdown(upload: QuickOperation(), notify: QuickOperation())
            #expect(markdown.hasPrefix("```mermaid\n"))
            #expect(markdown.hasSuffix("```\n"))
        }

        @Test func aLoggerOfYourOwn() async throws {
            let queue = ConditionalOperationQueue()
            OperationLoggerSample.attach(to: queue)
            let operation = QuickOperation()
            queue.addOperation(operation)
            try await operation.untilFinished(timeout: .seconds(5))
            #expect(queue.logger is OperationLoggerSample.SwiftLogOperationLogger)
            _ = writeTheGraph
            _ = writeTheDOT
        }

        // OperationGraph.init(_:limit:)
        @Test func aGraphOfOperations() {
            let download = QuickOperation()
            let parse = QuickOperation()
            let save = QuickOperation()
            parse.addDependency(download)
            save.addDependency(parse)
            let graph = OperationGraph([download, parse, save])
            print(graph.mermaid)
            #expect(graph.mermaid.contains("-->"))
        }

        // OperationGraph.init(queue:limit:)
        @Test func aGraphOfASuspendedQueue() {
            let queue = ConditionalOperationQueue()
            let fetch = QuickOperation()
            let store = QuickOperation()
            store.addDependency(fetch)
            queue.isSuspended = true
            queue.addOperations([fetch, store], waitUntilFinished: false)
            print(OperationGraph(queue: queue).dot)
            #expect(OperationGraph(queue: queue).dot.contains("digraph operations"))
            queue.cancelAllOperations()
            queue.isSuspended = false
        }

        @Test func theProgressOfAnOperation() async throws {
            let progressView = ProgressView()
            let urls = [URL(fileURLWithPath: "/a.png"), URL(fileURLWithPath: "/b.png")]
            let resize = resizeImages(urls: urls, queue: OperationQueue(), progressView: progressView)
            try await resize.untilFinished(timeout: .seconds(5))
            #expect(progressView.observedProgress?.completedUnitCount == 2)
        }

        // OperationDiagnosis
        @Test func printingADiagnosis() {
            let operation = QuickOperation()
            operation.name = "printed-diagnosis"
            print(operation.diagnosis)
            // FetchUsers 'users' (evaluatingConditions): evaluating conditions for 12.0 s; not answered: Reachable
            let line = "QuickOperation 'printed-diagnosis' (initialized): not added to a queue or started yet"
            #expect(Printed.lines.contains(line))
        }
    }
}
