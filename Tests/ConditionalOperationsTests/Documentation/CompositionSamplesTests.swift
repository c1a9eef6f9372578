import ConditionalOperations
import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests {
    /// The samples of the DocC article `ComposingOperations.md`, verbatim, with the stubs they need (checked
    /// by `DocumentationSamplesTests`).
    @Suite struct CompositionSamplesTests {
        // MARK: Stubs the samples use (not in the guide)

        final class DownloadOperation: ConditionalOperation, @unchecked Sendable {
            let url: URL
            init(url: URL) { self.url = url }
            override func execute() { finish() }
        }

        final class UnzipOperation: ConditionalOperation, @unchecked Sendable {
            override func execute() { finish() }
        }

        struct User: Sendable {
            let name: String
            let isActive: Bool
        }

        struct AuthenticationError: Error {}

        enum SyncError: Error { case offline, rejected }

        final class SyncAccountOperation: ConditionalOperation, @unchecked Sendable {
            let outcome: SyncError?
            init(_ outcome: SyncError? = nil) { self.outcome = outcome }
            override func execute() { finish(error: outcome) }
        }

        /// Syncs every account, two at a time; an account that is offline is no failure of the sync.
        final class SyncAccounts: GroupOperation, @unchecked Sendable {
            init(accounts: [SyncAccountOperation]) {
                super.init(operations: accounts)
                maxConcurrentChildren = 2
            }

            override func child(_ child: Operation, didFinishWith errors: [any Error]) -> [any Error] {
                errors.filter { ($0 as? SyncError) != .offline }
            }
        }

        enum ExportStatus: Sendable { case pending, ready }

        final class CheckExportOperation: ResultOperation<ExportStatus>, @unchecked Sendable {
            let id: String
            init(_ id: String) { self.id = id }
            override func execute() { finish(returning: .ready) }
        }

        @Test func repeatingAnOperation() async throws {
            let exportID = "export-1"
            let poll = RepeatOperation(maximumCount: 60, interval: .constant(.seconds(5))) { iteration in
                CheckExportOperation(exportID)  // a ResultOperation<ExportStatus>
            }
            poll.addObserver(TimeoutObserver(timeout: .seconds(300)))
            // The sample would poll 60 times, 5 s apart: here one iteration, then a cancel.
            let first = Latch()
            poll.addObserver(BlockObserver(didStart: { _ in first.countDown() }))
            OperationQueue().addOperation(poll)
            #expect(await first.wait())
            await waitUntil(seconds: 10) { poll.iterationCount == 1 }
            poll.cancel()
            await poll.untilFinished()
            #expect(poll.isCancelled && poll.iterationCount == 1)
        }

        @Test func repeatingUntilThePreviousOutputSaysDone() async throws {
            let exportID = "export-1"
            let export = RepeatOperation<ExportStatus>(interval: .constant(.seconds(1))) { _, previous in
                previous == .ready ? nil : CheckExportOperation(exportID)
            }
            #expect(try await OperationQueue().run(export) == .ready)
            #expect(export.iterationCount == 1, "the first check said ready: no second one")
        }

        @Test func controllingTheChildren() async {
            let sync = SyncAccounts(accounts: [
                SyncAccountOperation(), SyncAccountOperation(.offline), SyncAccountOperation(.rejected),
            ])
            #expect(sync.maxConcurrentChildren == 2)
            try? await OperationQueue().run(sync)
            #expect(sync.errors.map { $0 as? SyncError } == [.rejected])
            #expect(sync.children.count == 3)
        }

        /// Fails its first attempt, then fetches.
        final class FetchUsersOperation: ResultOperation<[User]>, @unchecked Sendable {
            static let attempts = Counter()

            override func execute() {
                if Self.attempts.increment() == 1 { return finish(error: URLError(.timedOut)) }
                finish(returning: [User(name: "Ada", isActive: true), User(name: "Bob", isActive: false)])
            }
        }

        final class ProcessUsersOperation: ResultOperation<[String]>, @unchecked Sendable {
            private let users = Locked<[User]>([])
            func use(_ users: [User]) { self.users.withLock { $0 = users } }
            override func execute() { finish(returning: users.withLock { $0 }.map(\.name)) }
        }

        // MARK: Samples

        func fetchUsersThenProcessThem() async throws -> [String] {
            struct User: Sendable {
                let id: Int
                let name: String
                let isActive: Bool
            }

            /// Produces the users. A real one would call a web service; this one makes them up.
            final class FetchUsersOperation: ResultOperation<[User]>, @unchecked Sendable {
                override func execute() {
                    DispatchQueue.global().async {
                        self.finish(returning: [
                            User(id: 1, name: "Ada", isActive: true),
                            User(id: 2, name: "Brian", isActive: false),
                            User(id: 3, name: "Grace", isActive: true),
                        ])
                    }
                }
            }

            /// Keeps the names of the active users it is handed.
            final class ProcessUsersOperation: ResultOperation<[String]>, @unchecked Sendable {
                private let lock = NSLock()
                private var users: [User] = []  // mutable state: only under `lock`

                func use(_ users: [User]) {
                    lock.withLock { self.users = users }
                }

                override func execute() {
                    let users = lock.withLock { self.users }
                    finish(returning: users.filter(\.isActive).map(\.name))
                }
            }

            let fetch = FetchUsersOperation()
            let process = ProcessUsersOperation()
            process.inject(from: fetch) { process, users in process.use(users) }

            let queue = ConditionalOperationQueue()
            queue.addOperations([fetch, process], waitUntilFinished: false)
            await process.untilFinished()
            print(try process.result!.get())  // ["Ada", "Grace"]
            return try process.result!.get()
        }

        func mapTheActiveUsersNames() async throws -> [String] {
            /// The users of the scenario above, fetched at once.
            final class FetchUsersOperation: ResultOperation<[User]>, @unchecked Sendable {
                override func execute() {
                    finish(returning: [
                        User(name: "Ada", isActive: true), User(name: "Brian", isActive: false),
                        User(name: "Grace", isActive: true),
                    ])
                }
            }

            let fetch = FetchUsersOperation()
            let activeNames = fetch.map { users in users.filter(\.isActive).map(\.name) }

            let queue = ConditionalOperationQueue()
            queue.addOperation(fetch)
            print(try await queue.run(activeNames))  // ["Ada", "Grace"]
            return try #require(activeNames.result).get()
        }

        final class UploadOperation: ConditionalOperation, @unchecked Sendable {
            let photo: String
            init(photo: String) { self.photo = photo }
            override func execute() { finish() }
        }

        func suspendTheUploads(photos: [String], queue: OperationQueue, networkIsBack: Latch) async
            -> GroupOperation
        {
            let uploads = GroupOperation(operations: photos.map { UploadOperation(photo: $0) })
            uploads.maxConcurrentChildren = 3
            queue.addOperation(uploads)
            // … when the network goes away:
            uploads.isSuspended = true  // the running uploads finish; no other one starts
            // … when it comes back:
            _ = await networkIsBack.wait()
            uploads.isSuspended = false  // three at a time again
            return uploads
        }

        func install(url: URL, queue: ConditionalOperationQueue) -> GroupOperation {
            let download = DownloadOperation(url: url)
            let unzip = UnzipOperation()
            unzip.addDependency(download)
            let group = GroupOperation(operations: [download, unzip])
            group.addObserver(BlockObserver(didFinish: { _, errors in print("installed", errors) }))
            queue.addOperation(group)
            return group
        }

        func groupHoldingACategory(uploadChanges: ConditionalOperation, downloadChanges: ConditionalOperation)
            -> GroupOperation
        {
            let sync = GroupOperation(operations: [uploadChanges, downloadChanges])
            sync.addCondition(MutuallyExclusive(category: "database"))
            uploadChanges.addCondition(MutuallyExclusive(category: "database"))
            downloadChanges.addCondition(MutuallyExclusive(category: "database"))
            return sync
        }

        func retry(process: ProcessUsersOperation) -> RetryOperation<[User]> {
            let fetch = RetryOperation(
                maximumAttempts: 4, backoff: .exponential(initial: .milliseconds(500), maximum: .seconds(10)),
                shouldRetry: { errors in !errors.contains { $0 is AuthenticationError } },
                makeAttempt: { attempt in
                    FetchUsersOperation()  // a fresh ResultOperation<[User]> for every attempt
                })
            process.inject(from: fetch) { process, users in process.use(users) }
            return fetch
        }

        func pause(next: Foundation.Operation, queue: OperationQueue) -> DelayOperation {
            let pause = DelayOperation(interval: .seconds(2))  // or DelayOperation(until: date)
            next.addDependency(pause)
            queue.addOperations([pause, next], waitUntilFinished: false)
            return pause
        }

        // MARK: Running them

        @Test func theActiveUsersAreProcessed() async throws {
            #expect(try await fetchUsersThenProcessThem() == ["Ada", "Grace"])
        }

        @Test func theMappedOperationTransformsTheUsers() async throws {
            #expect(try await mapTheActiveUsersNames() == ["Ada", "Grace"])
        }

        @Test func theSuspendedUploadsGoOnOnceResumed() async {
            let networkIsBack = Latch()
            networkIsBack.countDown()
            let uploads = await suspendTheUploads(
                photos: ["a", "b", "c", "d"], queue: ConditionalOperationQueue(), networkIsBack: networkIsBack
            )
            await uploads.untilFinished()
            #expect(uploads.errors.isEmpty && uploads.children.allSatisfy { $0.isFinished })
            #expect(!uploads.isSuspended)
        }

        @Test func theGroupInstalls() async {
            let group = install(url: URL(fileURLWithPath: "archive.zip"), queue: ConditionalOperationQueue())
            await group.untilFinished()
            #expect(group.errors.isEmpty && !group.isCancelled)
        }

        @Test func theGroupAndItsChildrenShareTheCategory() async {
            let upload = ClosureOperation<Void>(name: "upload") { $0.finish() }
            let download = ClosureOperation<Void>(name: "download") { $0.finish() }
            let sync = groupHoldingACategory(uploadChanges: upload, downloadChanges: download)
            ConditionalOperationQueue().addOperation(sync)
            await sync.untilFinished()
            #expect(sync.errors.isEmpty && upload.isFinished && download.isFinished)
        }

        @Test func theRetryHandsTheUsersOfItsSecondAttempt() async throws {
            let process = ProcessUsersOperation()
            let fetch = retry(process: process)
            let queue = ConditionalOperationQueue()
            queue.addOperation(fetch)
            #expect(try await queue.run(process) == ["Ada", "Bob"])
            #expect(fetch.attemptCount == 2)
        }

        @Test func theDelayHoldsBackItsDependent() async {
            let next = ClosureOperation<Void>(name: "next") { $0.finish() }
            let pause = pause(next: next, queue: ConditionalOperationQueue())
            await next.untilFinished()
            #expect(pause.isFinished && !pause.isCancelled)
        }
    }
}
