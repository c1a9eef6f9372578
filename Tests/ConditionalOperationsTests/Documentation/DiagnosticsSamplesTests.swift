import ConditionalOperations
import Foundation
import Testing

#if canImport(Logging)
    import Logging
#endif
#if canImport(os)
    import os
#endif

// MARK: Stubs the samples use (not in the guide)

private struct API: Sendable {
    func upload(_ photos: [String], completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        DispatchQueue.global().async { completion(.success(())) }
    }
}

private struct Session: Sendable {
    let isValid = false
}

private let api = API()
private let photos = ["photo"]
private let session = Session()
private let queue = ConditionalOperationQueue()

extension ConditionalOperationsTests {
    /// The samples of the DocC article `DiagnosingOperations.md`, verbatim, with the stubs they need (checked
    /// by `DocumentationSamplesTests`). `DiagnosticsGuideTests` runs the three hangs.
    @Suite struct DiagnosticsSamplesTests {
        final class Fetch: ConditionalOperation, @unchecked Sendable {
            override func execute() { finish() }
        }

        static func report(_ message: String) { print(message) }

        /// Stands in for swift-log's `Logger` (the package depends on nothing).
        struct Logger {
            enum Level { case debug, warning }
            init(label: String) {}
            func log(level: Level, _ message: @autoclosure () -> String) {}
        }

        // MARK: Samples

        final class Upload: ConditionalOperation, @unchecked Sendable {
            override func execute() {
                api.upload(photos) { result in
                    if case .failure(let error) = result { self.finish(error: error) }
                    // the success path forgets `self.finish()`
                }
            }
        }

        func hang1(sync: ConditionalOperation, upload: ConditionalOperation) {
            print(sync.diagnosis)
            // SyncOperation 'sync' (pending): waiting for 1 dependency: Upload 'photos' (executing)
            print(upload.diagnosis)
            // Upload 'photos' (executing): executing for 42 s (it finishes only when it calls finish(); check every path of execute())
        }

        struct SignedIn: OperationCondition {
            func evaluate(
                for operation: ConditionalOperation,
                completion: @escaping @Sendable (OperationConditionResult) -> Void
            ) {
                guard session.isValid else { return }  // forgets completion(.failed(…))
                completion(.satisfied)
            }
        }

        func hang2(operation: ConditionalOperation) {
            print(operation.diagnosis)
            // Upload (evaluatingConditions): evaluating conditions for 12 s; not answered: SignedIn (a condition must call its completion exactly once)
        }

        static func watch(operation: ConditionalOperation) {
            if case .conditions(let unanswered, let waited) = operation.diagnosis.reason, waited > 30 {
                report("conditions \(unanswered) never answered")
            }
        }

        func hang3() {
            queue.maxConcurrentOperationCount = 1

            final class Report: ConditionalOperation, @unchecked Sendable {
                override func execute() {
                    let fetch = Fetch()
                    queue.addOperation(fetch)
                    fetch.waitUntilFinished()  // holds the queue's only slot while `fetch` needs it
                    finish()
                }
            }
        }

        func hang3Report(queue: ConditionalOperationQueue) {
            print(queue.diagnosticReport)
            // ConditionalOperationQueue 'reports': 2 unfinished, running, at most 1 at once
            //   Report (executing): executing for 30 s (it finishes only when it calls finish(); check every path of execute())
            //   Fetch (ready): ready, but its queue already runs its limit of 1 operation
        }

        func graph(queue: ConditionalOperationQueue) throws {
            let graph = OperationGraph(queue: queue)  // or OperationGraph([sync, upload])
            try graph.dot.write(toFile: "stuck.dot", atomically: true, encoding: .utf8)
            print(graph.mermaid)  // paste into a Markdown file that renders Mermaid
        }

        func logging(queue: ConditionalOperationQueue, upload: ConditionalOperation) {
            queue.logger = BlockLogger { record in print(record) }  // every operation added from now on
            upload.addLogger(BlockLogger { print($0) })  // one operation
            // Upload 'photos': state initialized
            // Upload 'photos': condition SignedIn satisfied in 0.002 s
            // Upload 'photos': waiting for exclusivity: network
            // Upload 'photos': acquired network after 1.250 s
            // Upload 'photos': state executing
            // Upload 'photos': finished with URLError(…)
        }

        func swiftLog(queue: ConditionalOperationQueue) {
            struct SwiftLogOperationLogger: OperationLogger {
                let logger: Logger
                func log(_ record: OperationLogRecord) {
                    logger.log(level: record.isFailure ? .warning : .debug, "\(record)")
                }
            }
            queue.logger = SwiftLogOperationLogger(logger: Logger(label: "operations"))
        }

        func deadlines(upload: ConditionalOperation, queue: ConditionalOperationQueue) {
            upload.addDeadline(after: .seconds(30))  // counted from now: add it when you enqueue
            upload.addDeadline(at: Date(timeIntervalSinceNow: 60))  // or at a given date
            queue.addOperation(upload)
        }

        // MARK: Running some

        @Test func theSwiftLogAdapterTakesTheRecords() async {
            let queue = ConditionalOperationQueue()
            swiftLog(queue: queue)
            let operation = ClosureOperation<Void>(name: "logged") { $0.finish() }
            queue.addOperation(operation)
            await operation.untilFinished()
            #expect(queue.logger != nil)
        }

        @Test func aDeadlineAddedBeforeEnqueuingIsDroppedAtTheFinish() async {
            let upload = ClosureOperation<Void>(name: "upload") { $0.finish() }
            deadlines(upload: upload, queue: ConditionalOperationQueue())
            await upload.untilFinished()
            #expect(upload.errors.isEmpty && !upload.isCancelled)
        }

        @Test func theGraphOfAnEmptyQueue() {
            #expect(!OperationGraph(queue: ConditionalOperationQueue()).mermaid.isEmpty)
        }
    }
}

#if canImport(os)
    /// The `os.Logger` adapter of the DocC article `DiagnosingOperations.md`, compiled on Apple platforms.
    private enum OSLogSample {
        struct OSLogOperationLogger: OperationLogger {
            let logger = Logger(subsystem: "com.example.app", category: "operations")
            func log(_ record: OperationLogRecord) {
                let line = record.description
                if record.isFailure {
                    logger.error("\(line, privacy: .public)")
                } else {
                    logger.debug("\(line, privacy: .public)")
                }
            }
        }
    }
#endif
