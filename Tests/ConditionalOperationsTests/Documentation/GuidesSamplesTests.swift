import ConditionalOperations
import Foundation
import Testing

extension ConditionalOperationsTests {
    /// The samples of the DocC articles `GettingStarted.md` (those not in `CatalogSamplesTests`),
    /// `Lifecycle.md`, `UsingConditions.md`, `ObservingOperations.md`, `MutualExclusivity.md` and
    /// `RunningOperations.md`, verbatim, with the stubs they need (checked by
    /// `DocumentationSamplesTests`).
    @Suite struct GuidesSamplesTests {
        // MARK: Stubs the samples use (not in the articles)

        final class DownloadPageOperation: ConditionalOperation, @unchecked Sendable {
            let page: Int
            init(_ page: Int) {
                self.page = page
                super.init()
            }
        }

        final class UploadOperation: ConditionalOperation, @unchecked Sendable {
            let report: String
            init(_ report: String) {
                self.report = report
                super.init()
            }
        }

        final class SyncOperation: ConditionalOperation, @unchecked Sendable {}

        final class FetchUserOperation: ConditionalOperation, @unchecked Sendable {
            let user: String
            init(_ user: String) {
                self.user = user
                super.init()
            }
        }

        enum LoginError: Error { case rejected }

        final class LoginOperation: ConditionalOperation, @unchecked Sendable {
            override func execute() { finish(error: LoginError.rejected) }
        }

        struct Settings { var isOffline = false }

        final class Monitor: ConditionalOperationQueueDelegate {}

        final class ChecksumOperation: ConditionalOperation, @unchecked Sendable {}

        final class Produced: @unchecked Sendable {
            private let lock = NSLock()
            private var list: [Foundation.Operation] = []  // only under `lock`
            var operations: [Foundation.Operation] { lock.withLock { list } }
            func append(_ operation: Foundation.Operation) { lock.withLock { list.append(operation) } }
        }

        // MARK: GettingStarted.md

        /// Produces one operation per page.
        final class PagesOperation: ConditionalOperation, @unchecked Sendable {
            let pages: [Int]
            init(pages: [Int]) {
                self.pages = pages
                super.init()
            }

            override func execute() {
                for page in pages { produceOperation(DownloadPageOperation(page)) }
                finish()
            }
        }

        @Test func gettingStartedProducesAnOperationPerPage() async {
            let queue = ConditionalOperationQueue()
            let producer = PagesOperation(pages: [1, 2, 3])
            let produced = Produced()
            producer.addObserver(BlockObserver(didProduce: { _, operation in produced.append(operation) }))
            queue.addOperation(producer)
            await producer.untilFinished()
            for operation in produced.operations {
                await (operation as? ConditionalOperation)?.untilFinished()
            }
            #expect(produced.operations.count == 3)
        }

        // MARK: Lifecycle.md

        /// Cleans up before it finishes, even when cancelled.
        final class CleaningUpOperation: ConditionalOperation, @unchecked Sendable {
            override var finishesWhenCancelled: Bool { false }
        }

        @Test func lifecycleAnOperationThatCleansUpStaysExecutingWhenCancelled() async {
            let operation = CleaningUpOperation()
            #expect(!operation.finishesWhenCancelled)
        }

        // MARK: UsingConditions.md

        @Test func usingConditionsConditionsBeforeDependencies() async {
            let report = "total: 3"
            let writeReport = BlockOperation {}
            let queue = OperationQueue()
            let upload = UploadOperation(report)
            upload.addCondition(BlockCondition(name: "report is not empty") { !report.isEmpty })
            upload.addDependency(writeReport)  // dependencies after conditions (see below)
            queue.addOperation(upload)
            queue.addOperation(writeReport)
            await upload.untilFinished()
            #expect(upload.errors.isEmpty)
        }

        func readable(_ path: String) -> BlockCondition {
            BlockCondition(name: "file is readable") { FileManager.default.isReadableFile(atPath: path) }
        }

        @Test func usingConditionsBlockAndNegatedConditions() async {
            let settings = Settings(isOffline: true)
            let op = SyncOperation()
            op.addCondition(readable("/nonexistent-\(UUID().uuidString)"))
            op.addCondition(NegatedCondition(BlockCondition(name: "offline mode") { settings.isOffline }))
            op.start()
            await op.untilFinished()
            #expect(
                op.errors.map { String(describing: $0) } == [
                    "condition 'file is readable' failed", "condition 'Not<offline mode>' failed",
                ])
        }

        actor CombinationSession { var isSignedIn = true }
        struct Network { var isWiFi = false }
        struct CellularSettings { var allowsCellular = true }

        @Test func usingConditionsCombining() async {
            let session = CombinationSession()
            let network = Network()
            let settings = CellularSettings()
            let download = SyncOperation()
            let signedIn = AsyncCondition(name: "signed in") { await session.isSignedIn }
            let onWiFi = BlockCondition(name: "on Wi-Fi") { network.isWiFi }
            let cellularAllowed = BlockCondition(name: "cellular allowed") { settings.allowsCellular }
            download.addCondition(signedIn && (onWiFi || cellularAllowed))
            download.start()
            await download.untilFinished()
            #expect(download.errors.isEmpty && !download.isSkipped)
        }

        @Test func usingConditionsSkipping() async {
            let changes: [String] = []
            let upload = UploadOperation("report")
            upload.addCondition(SkippingCondition(BlockCondition(name: "has changes") { !changes.isEmpty }))
            upload.start()
            await upload.untilFinished()
            #expect(upload.isSkipped && upload.errors.isEmpty && !upload.isCancelled)
        }

        @Test func usingConditionsAFailedDependencyLeadsToTheRootCause() async {
            let sync = SyncOperation()
            let queue = OperationQueue()
            let login = LoginOperation()  // fails with LoginError.rejected
            login.name = "login"
            sync.addCondition(NoFailedDependencies())
            sync.addDependency(login)
            // … run both; then sync.errors is [1 dependency failed: dependency 'login' failed: rejected]
            queue.addOperation(login)
            queue.addOperation(sync)
            await sync.untilFinished()
            #expect(
                sync.errors.map { String(describing: $0) } == [
                    "1 dependency failed: dependency 'login' failed: rejected"
                ])

            if let error = sync.errors.first as? OperationError {
                print(error.failedDependencies.map(\.name))  // ["login"]
                print(error.underlyingErrors)  // [LoginError.rejected], through chains of dependents too
            }
            let error = sync.errors.first as? OperationError
            #expect(error?.failedDependencies.map(\.name) == ["login"])
            #expect(error?.underlyingErrors.first as? LoginError == .rejected)
        }

        struct DiskSpaceCondition: OperationCondition {
            let bytesNeeded: Int64
            var name: String { "disk space ≥ \(bytesNeeded) bytes" }

            func evaluate(
                for operation: ConditionalOperation,
                completion: @escaping @Sendable (OperationConditionResult) -> Void
            ) {
                // Slow work goes elsewhere: never block the calling thread.
                DispatchQueue.global().async {
                    let values = try? URL(fileURLWithPath: NSTemporaryDirectory())
                        .resourceValues(forKeys: [.volumeAvailableCapacityKey])
                    if let available = values?.volumeAvailableCapacity, Int64(available) >= bytesNeeded {
                        completion(.satisfied)
                    } else {
                        completion(.failed(OperationError.conditionFailed(name: name)))
                    }
                }
            }
        }

        @Test func usingConditionsACustomConditionAnswersLater() async {
            let op = SyncOperation()
            op.addCondition(DiskSpaceCondition(bytesNeeded: .max))
            op.start()
            await op.untilFinished()
            #expect(
                op.errors.map { String(describing: $0) } == [
                    "condition 'disk space ≥ \(Int64.max) bytes' failed"
                ])
        }

        // MARK: ObservingOperations.md

        struct Logger: OperationObserver {
            func operationDidStart(_ operation: ConditionalOperation) { print("start", operation.name ?? "") }
            func operationDidFinish(_ operation: ConditionalOperation, errors: [any Error]) {
                print("finish", operation.name ?? "", errors)
            }
        }

        @Test func observingOperationsBlockObserverAndAType() async {
            let op = SyncOperation()
            op.addObserver(
                BlockObserver(
                    didStart: { operation in print("started", operation.name ?? "") },
                    didCancel: { operation, errors in print("cancelled", errors) },
                    didFinish: { operation, errors in
                        print(errors.isEmpty ? "done" : "failed: \(errors)")
                    }))
            op.addObserver(Logger())
            op.start()
            await op.untilFinished()
            #expect(op.isFinished)
        }

        // MARK: MutualExclusivity.md

        /// Only one operation at a time may write to the database.
        struct DatabaseWrite: OperationCondition {
            var mutuallyExclusiveCategories: Set<String> { ["database writes"] }
            func evaluate(
                for operation: ConditionalOperation,
                completion: @escaping @Sendable (OperationConditionResult) -> Void
            ) {
                completion(.satisfied)
            }
        }

        @Test func mutualExclusivityCategories() async {
            let showAlert = SyncOperation()
            let sync = SyncOperation()
            let write = SyncOperation()
            showAlert.addCondition(MutuallyExclusive(category: "modal alert"))
            sync.addCondition(MutuallyExclusive(SyncOperation.self))  // the category is the type's name
            write.addCondition(DatabaseWrite())
            let queue = OperationQueue()
            for operation in [showAlert, sync, write] { queue.addOperation(operation) }
            for operation in [showAlert, sync, write] { await operation.untilFinished() }
            #expect([showAlert, sync, write].allSatisfy { $0.errors.isEmpty })
        }

        @Test func mutualExclusivityWithALimit() async {
            let files = (1...8).map { "report \($0)" }
            let queue = ConditionalOperationQueue()
            for file in files {
                let upload = UploadOperation(file)
                upload.addCondition(MutuallyExclusive(category: "uploads", limit: 3))
                queue.addOperation(upload)
            }
            let finished = Latch()
            queue.addBarrierBlock { finished.countDown() }
            #expect(await finished.wait())
        }

        /// This module's uploads: a category of its own, whatever other modules call theirs.
        enum Uploads {
            static let category = ExclusivityCategory("uploads", limit: 3)
        }

        @Test func mutualExclusivityWithACategoryValue() async {
            let files = (1...8).map { "report \($0)" }
            let queue = ConditionalOperationQueue()
            for file in files {
                let upload = UploadOperation(file)
                upload.addCondition(MutuallyExclusive(Uploads.category))  // at most 3 at once
                queue.addOperation(upload)
            }
            let finished = Latch()
            queue.addBarrierBlock { finished.countDown() }
            #expect(await finished.wait())
            #expect(MutuallyExclusive(Uploads.category).limit == 3)
        }

        /// The API allows 10 requests a second.
        enum API {
            static let rateLimit = RateLimit("api", permits: 10, per: .seconds(1))
        }

        @Test func mutualExclusivityWithARateLimit() async {
            let users = (1...12).map { "user \($0)" }
            let queue = ConditionalOperationQueue()
            let started = DispatchTime.now()
            for user in users {
                let fetch = FetchUserOperation(user)
                fetch.addCondition(API.rateLimit)  // at most 10 start in any second
                queue.addOperation(fetch)
            }
            let finished = Latch()
            queue.addBarrierBlock { finished.countDown() }
            #expect(await finished.wait())
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
            #expect(seconds >= 1, "the 11th and 12th waited for the window")
        }

        // MARK: RunningOperations.md

        @Test func runningOperationsShuttingDown() async {
            let queue = ConditionalOperationQueue()
            queue.addOperation(BlockOperation {})
            await queue.shutdown(gracePeriod: .seconds(10))
            #expect(queue.isShutDown && queue.unfinishedOperationCount == 0)
        }

        @Test func runningOperationsOnAConditionalOperationQueue() async {
            let monitor = Monitor()
            let importer = SyncOperation()
            let queue = ConditionalOperationQueue()
            queue.delegate = monitor  // willAdd / operationDidFinish(errors:), held weakly
            queue.addOperation(importer)
            await importer.untilFinished()
            #expect(importer.isFinished && importer.errors.isEmpty)
        }

        @Test func runningOperationsCountsWhatItHolds() async {
            let queue = ConditionalOperationQueue()
            queue.isSuspended = true  // nothing starts: the counts below stay as they are
            let report = ClosureOperation<Void>(name: "report") { operation in operation.finish() }
            queue.addOperation(report)
            let counted = queue.operationCount  // 0: Foundation's scheduler never sees it
            let unfinished = queue.unfinishedOperationCount  // 1: added and not finished
            queue.isSuspended = false
            await queue.waitUntilIdle()  // returns once report finished
            #expect(counted == 0 && unfinished == 1)
            #expect(report.isFinished && queue.unfinishedOperations.isEmpty)
            await expectVoidValue(report)
        }

        @Test func runningOperationsTheCurrentQueue() async {
            let queue = ConditionalOperationQueue()
            let cleanUp = ClosureOperation<Void>(name: "clean up") { operation in operation.finish() }
            let importer = ClosureOperation<Void>(name: "import") { operation in
                // The queue running it; Foundation's OperationQueue.current is not that queue here.
                ConditionalOperationQueue.current?.addOperation(cleanUp)
                operation.finish()
            }
            queue.addOperation(importer)
            await importer.untilFinished()
            // importer added cleanUp before it finished, so the queue's idle means cleanUp finished.
            await queue.waitUntilIdle()
            #expect(cleanUp.isFinished && cleanUp.errors.isEmpty)
            await expectVoidValue(importer, cleanUp)
        }

        @Test func runningOperationsByHand() async {
            let checksum = ChecksumOperation()
            checksum.start()  // at most once
            await checksum.untilFinished()
            #expect(checksum.isFinished)
        }
    }
}
