import ConditionalOperations
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension ConditionalOperationsTests {
    /// The samples of `README.md`, verbatim, with the stubs they need (checked by
    /// `DocumentationSamplesTests`).
    @Suite struct ReadmeSamplesTests {
        // MARK: Stubs the samples use (not in the README)

        /// Stands in for Foundation's: a download that succeeds at once, on another thread, with no
        /// network.
        final class URLSession: Sendable {
            static let shared = URLSession()

            struct DataTask {
                let completion: @Sendable () -> Void
                func resume() { DispatchQueue.global().async(execute: completion) }
            }

            func dataTask(
                with url: URL, completionHandler: @escaping @Sendable (Data?, String?, (any Error)?) -> Void
            ) -> DataTask {
                DataTask { completionHandler(Data(), nil, nil) }
            }
        }

        enum Reachability {
            static let isOnline = true
        }

        final class SyncOperation: ConditionalOperation, @unchecked Sendable {
            override func execute() { finish() }
        }

        final class Monitor: ConditionalOperationQueueDelegate {}

        struct API: Sendable {
            func total() async throws -> Int { 42 }
        }

        actor Session {
            var isSignedIn = true
        }

        // MARK: Samples

        func downloadWithAConditionAndAnObserver() async -> ConditionalOperation {
            /// Downloads one file. A subclass restates `@unchecked Sendable`: the compiler checks nothing
            /// about its stored properties, so keep them `let` (or behind a lock).
            final class DownloadOperation: ConditionalOperation, @unchecked Sendable {
                let url: URL
                init(url: URL) { self.url = url }

                override func execute() {
                    guard !isCancelled else { return finish() }
                    URLSession.shared.dataTask(with: url) { _, _, error in
                        self.finish(error: error)  // from any thread, exactly when the work is done
                    }.resume()
                }
            }

            let download = DownloadOperation(url: URL(string: "https://example.com")!)
            download.addCondition(BlockCondition(name: "online") { Reachability.isOnline })
            download.addObserver(
                BlockObserver(didFinish: { operation, errors in
                    print(operation.name ?? "download", errors.isEmpty ? "succeeded" : "failed: \(errors)")
                }))
            OperationQueue().addOperation(download)
            await download.waitUntilFinished()
            return download
        }

        func whatElseIsInTheBox(
            sync: SyncOperation, monitor: Monitor, chainOf10_000: [Foundation.Operation]
        ) -> ConditionalOperationQueue {
            sync.addCondition(MutuallyExclusive(SyncOperation.self))  // never two syncs at once, any queue
            sync.addCondition(NoFailedDependencies())  // not if what it depends on failed
            sync.addObserver(TimeoutObserver(timeout: 30))  // cancelled with .timedOut after 30 s

            let queue = ConditionalOperationQueue()  // an OperationQueue, plus:
            queue.delegate = monitor  // every operation added and finished
            queue.addOperations(chainOf10_000, waitUntilFinished: false)  // linear time, not quadratic
            return queue
        }

        func asyncWorkAndAwaiting(
            api: API, session: Session, queue: ConditionalOperationQueue,
            fetchUsers: ResultOperation<[String]>, upload: ConditionalOperation
        ) async throws -> (Int, [String]) {
            let sum = AsyncOperation(name: "sum") { try await api.total() }  // async work, run in a task
            sum.addCondition(AsyncCondition(name: "signed in") { await session.isSignedIn })
            // cancelling this task cancels `sum`; returns once it finished
            let total = try await queue.run(sum)

            let users = try await fetchUsers.value  // the value, or its first error
            for await event in upload.events { print(event) }  // stateChanged(…), didStart, …, didFinish
            return (total, users)
        }

        func whyIsItWaiting(
            sync: SyncOperation, upload: ConditionalOperation, queue: ConditionalOperationQueue
        ) {
            print(sync.diagnosis)
            // SyncOperation (pending): waiting for 1 dependency: Upload 'photos' (executing)
            print(upload.diagnosis)
            // Upload 'photos' (evaluatingConditions): evaluating conditions for 12 s; not answered: SignedIn …
            print(queue.diagnosticReport)  // every unfinished operation of the queue, one line each
            queue.logger = BlockLogger { print($0) }  // state changes, condition answers, waits, finishes
            upload.addDeadline(after: 30)  // timedOut, whatever it is still waiting for
        }

        // MARK: Running them

        @Test func theDownloadRunsWithItsConditionAndObserver() async {
            let download = await downloadWithAConditionAndAnObserver()
            #expect(download.isFinished && download.errors.isEmpty)
        }

        @Test func theBoxRunsTheSyncAndTellsTheDelegate() async {
            let sync = SyncOperation()
            let monitor = Monitor()
            let chain = (0..<3).map { _ in ClosureOperation<Void> { $0.finish() } }
            for (first, second) in zip(chain, chain.dropFirst()) { second.addDependency(first) }
            let queue = whatElseIsInTheBox(sync: sync, monitor: monitor, chainOf10_000: chain)
            queue.addOperation(sync)
            await sync.waitUntilFinished()
            for operation in chain { await operation.waitUntilFinished() }
            #expect(sync.errors.isEmpty && !sync.isCancelled)
            #expect(chain.allSatisfy { $0.errors.isEmpty })
        }

        @Test func asyncWorkReturnsItsValueAndTheEventsEnd() async throws {
            let queue = ConditionalOperationQueue()
            let fetchUsers = ClosureOperation<[String]>(name: "fetch") { $0.finish(returning: ["Ada"]) }
            let upload = AsyncOperation(name: "upload") {}
            queue.addOperations([fetchUsers, upload], waitUntilFinished: false)
            let (total, users) = try await asyncWorkAndAwaiting(
                api: API(), session: Session(), queue: queue, fetchUsers: fetchUsers, upload: upload)
            #expect(total == 42 && users == ["Ada"])
            #expect(upload.isFinished)
        }

        @Test func theDiagnosesOfOperationsNotEnqueued() {
            let sync = SyncOperation()
            let upload = ClosureOperation<Void>(name: "upload") { $0.finish() }
            whyIsItWaiting(sync: sync, upload: upload, queue: ConditionalOperationQueue())
            guard case .notEnqueued = sync.diagnosis.reason else {
                Issue.record("expected notEnqueued, got \(sync.diagnosis)")
                return
            }
            upload.cancel()
        }
    }
}
