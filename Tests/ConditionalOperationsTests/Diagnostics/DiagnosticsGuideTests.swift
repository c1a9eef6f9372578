import ConditionalOperations
import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests {
    /// The three silent hangs of the DocC article `DiagnosingOperations.md`, found as the guide shows.
    @Suite struct DiagnosticsGuideTests {
        /// Hang 1: the success path of `execute()` forgets `finish()`.
        final class Upload: ConditionalOperation, @unchecked Sendable {
            // stored state: lets only (a latch)
            let uploaded = Latch()

            override func execute() {
                DispatchQueue.global().async {
                    let result: Result<Void, TestError> = .success(())
                    if case .failure(let error) = result { self.finish(error: error) }
                    self.uploaded.countDown()  // the success path forgets `self.finish()`
                }
            }
        }

        @Test func hang1_anOperationThatNeverCallsFinishIsNamedByItsDependent() async {
            let upload = Upload()
            upload.name = "photos"
            let sync = ProbeOperation()
            sync.name = "sync"
            sync.addDependency(upload)
            let done = completionLatch([upload, sync])
            ConditionalOperationQueue().add([upload, sync])
            #expect(await upload.uploaded.wait())
            #expect(
                sync.diagnosis.description
                    == "ProbeOperation 'sync' (pending): waiting for 1 dependency: Upload 'photos' (executing)"
            )
            #expect(upload.diagnosis.description.hasPrefix("Upload 'photos' (executing): executing for "))
            #expect(
                OperationDiagnosis.Reason.executing(seconds: 42).description
                    == "executing for 42 s (it finishes only when it calls finish(); check every path of execute())"
            )
            upload.cancel()
            #expect(await done.wait())
        }

        /// Hang 2: a condition returns without calling its completion.
        struct SignedIn: OperationCondition {
            let isValid: Bool
            let asked = Latch()

            func evaluate(
                for operation: ConditionalOperation,
                completion: @escaping @Sendable (OperationConditionResult) -> Void
            ) {
                defer { asked.countDown() }
                guard isValid else { return }  // forgets completion(.failed(…))
                completion(.satisfied)
            }
        }

        @Test func hang2_aConditionThatNeverAnswersIsNamed() async {
            let condition = SignedIn(isValid: false)
            let upload = ProbeOperation()
            upload.addCondition(condition)
            let done = completionLatch([upload])
            ConditionalOperationQueue().addOperation(upload)
            #expect(await condition.asked.wait())
            #expect(
                upload.diagnosis.description.hasPrefix(
                    "ProbeOperation (evaluatingConditions): evaluating conditions for "))
            #expect(upload.diagnosis.description.hasSuffix("; not answered: SignedIn"))
            guard case .conditions(let unanswered, let waited) = upload.diagnosis.reason else {
                Issue.record("expected conditions, got \(upload.diagnosis)")
                return
            }
            #expect(unanswered == ["SignedIn"] && waited < 30)
            #expect(
                OperationDiagnosis.Reason.conditions(unanswered: ["SignedIn"], waited: 12).description
                    == "evaluating conditions for 12 s; not answered: SignedIn (a condition must call its completion exactly once)"
            )
            upload.cancel()
            #expect(await done.wait())
        }

        /// Hang 3: `execute()` waits synchronously for an operation its serial queue must run.
        final class Report: ConditionalOperation, @unchecked Sendable {
            // stored state: lets only
            let queue: OperationQueue
            let fetch = ProbeOperation()
            let added = Latch()
            /// Stands for `fetch.waitUntilFinished()`, which the test must be able to end.
            let gate = DispatchSemaphore(value: 0)

            init(queue: OperationQueue) {
                self.queue = queue
                super.init()
            }

            override func execute() {
                fetch.name = "fetch"
                queue.addOperation(fetch)
                added.countDown()
                gate.wait()  // holds the queue's only slot while `fetch` needs it
                finish()
            }
        }

        @Test func hang3_aSynchronousWaitOnASerialQueueShowsInTheQueuesReport() async {
            let queue = ConditionalOperationQueue()
            queue.name = "reports"
            queue.maxConcurrentOperationCount = 1
            let report = Report(queue: queue)
            let done = completionLatch([report, report.fetch])
            queue.addOperation(report)
            #expect(await report.added.wait())
            let lines = queue.diagnosticReport.split(separator: "\n").map(String.init)
            #expect(
                lines.first == "ConditionalOperationQueue 'reports': 2 unfinished, running, at most 1 at once"
            )
            #expect(lines.contains { $0.hasPrefix("  Report (executing): executing for ") })
            #expect(
                lines.contains(
                    "  ProbeOperation 'fetch' (ready): ready, but its queue already runs its limit of 1 operation"
                ))
            report.gate.signal()
            #expect(await done.wait())
        }

        @Test func aStuckQueueIsDrawnAsAGraph() throws {
            let queue = ConditionalOperationQueue()
            queue.isSuspended = true
            let upload = ProbeOperation()
            upload.name = "upload"
            let sync = ProbeOperation()
            sync.name = "sync"
            sync.addDependency(upload)
            queue.add([upload, sync])
            let graph = OperationGraph(queue: queue)
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("stuck-\(UUID()).dot")
                .path
            try graph.dot.write(toFile: path, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: path) }
            #expect(try String(contentsOfFile: path, encoding: .utf8).contains("ProbeOperation 'sync'"))
            #expect(graph.mermaid.contains("-->"))
            queue.cancelAllOperations()
            queue.isSuspended = false
        }

        @Test func aTimelineIsWrittenAsTraceEventsAndAPage() async throws {
            let queue = ConditionalOperationQueue()
            let fetch = ProbeOperation()
            let upload = ProbeOperation()
            upload.addDependency(fetch)
            // Inside a throwing async function:
            let timeline = OperationTimeline()
            queue.timeline = timeline
            queue.addOperations([fetch, upload], waitUntilFinished: false)
            await upload.untilFinished()
            let json = timeline.traceEventJSON()  // Data: write it to run.json, open it in Perfetto
            let page = timeline.html()  // a String: write it to run.html, open it in a browser
            for warning in timeline.warnings { print(warning) }
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "timeline-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            try json.write(to: directory.appendingPathComponent("run.json"))
            try page.write(
                to: directory.appendingPathComponent("run.html"), atomically: true, encoding: .utf8)
            #expect(String(decoding: json, as: UTF8.self).contains("\"traceEvents\""))
            #expect(page.contains("<svg"))
            #expect(timeline.warnings.isEmpty)
        }

        @Test func aLoggerPrintsOneLineARecord() async {
            let lines = Locked<[String]>([])
            let finished = Latch()
            let queue = ConditionalOperationQueue()
            queue.logger = BlockLogger { record in
                lines.withLock { $0.append("\(record)") }
                if case .finished = record.event { finished.countDown() }
            }
            let upload = ProbeOperation(.finishWith([TestError(1)]))
            upload.name = "photos"
            upload.addCondition(BlockCondition(name: "SignedIn") { true })
            queue.addOperation(upload)
            #expect(await finished.wait())
            let logged = lines.withLock { $0 }
            #expect(logged.first == "ProbeOperation 'photos': state initialized")
            #expect(
                logged.contains { $0.hasPrefix("ProbeOperation 'photos': condition SignedIn satisfied in ") })
            #expect(logged.contains("ProbeOperation 'photos': state executing"))
            #expect(logged.last == "ProbeOperation 'photos': finished with TestError(id: 1)")
        }
    }
}
