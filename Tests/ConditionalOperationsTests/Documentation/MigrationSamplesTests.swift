import ConditionalOperations
import ConditionalOperationsTesting
import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests {
    /// The samples of the three migration articles of the DocC catalog
    /// (`MigratingFromAdvancedNSOperations.md`, `MigratingFromPSOperations.md`,
    /// `MigratingFromProcedureKit.md`), verbatim, with the stubs they need.
    @Suite struct MigrationSamplesTests {
        // MARK: Stubs the samples use (not in the articles)

        /// A feed that downloads at once, on another thread.
        final class FeedClient: Sendable {
            let downloads = Counter()

            func download(completion: @escaping @Sendable ((any Error)?) -> Void) {
                downloads.increment()
                DispatchQueue.global().async { completion(nil) }
            }
        }

        /// A queue delegate recording the operations it hears of.
        final class QueueMonitor: ConditionalOperationQueueDelegate {
            let events = Recorder()
            let finished = Latch()

            func operationQueue(_ queue: ConditionalOperationQueue, willAdd operation: Foundation.Operation) {
                events.record("willAdd \(operation.name ?? "")")
            }

            func operationQueue(
                _ queue: ConditionalOperationQueue, operationDidFinish operation: Foundation.Operation,
                errors: [any Error]
            ) {
                events.record("didFinish \(operation.name ?? "")")
                finished.countDown()
            }
        }

        /// Signed in or not.
        final class Session: Sendable {
            private let signedIn = Locked(false)
            var isSignedIn: Bool { signedIn.withLock { $0 } }
            func signIn() { signedIn.withLock { $0 = true } }
        }

        /// Signs the session in.
        final class SignInOperation: ConditionalOperation, @unchecked Sendable {
            let session: Session

            init(session: Session) {
                self.session = session
                super.init()
                name = "sign in"
            }

            override func execute() {
                session.signIn()
                finish()
            }
        }

        /// Exports until stopped: `stop()` ends it with a `CancellationError`.
        final class Exporter: Sendable {
            let started = Latch()
            private let completion = Locked<(@Sendable ((any Error)?) -> Void)?>(nil)

            func start(completion: @escaping @Sendable ((any Error)?) -> Void) {
                self.completion.withLock { $0 = completion }
                started.countDown()
            }

            func stop() {
                let completion = self.completion.withLock { completion in
                    defer { completion = nil }
                    return completion
                }
                completion?(CancellationError())
            }
        }

        enum LoginError: Error {
            case rejected
        }

        actor Ledger {
            var isOpen = true
            func total() throws -> Int { 42 }
        }

        // MARK: Samples: types

        final class DownloadFeedOperation: ConditionalOperation, @unchecked Sendable {
            let feed: FeedClient  // a `let`: read from any thread

            init(feed: FeedClient) {
                self.feed = feed
                super.init()
                name = "download feed"
                addCondition(MutuallyExclusive(FeedClient.self))  // conditions first, in init
            }

            override func execute() {
                feed.download { error in
                    self.finish(error: error)  // from any thread; nil finishes without an error
                }
            }
        }

        struct SignedIn: OperationCondition {
            let session: Session
            var mutuallyExclusiveCategories: Set<String> { ["account"] }  // was isMutuallyExclusive

            func dependency(for operation: ConditionalOperation) -> Foundation.Operation? {
                session.isSignedIn ? nil : SignInOperation(session: session)  // asked once
            }

            func evaluate(
                for operation: ConditionalOperation,
                completion: @escaping @Sendable (OperationConditionResult) -> Void
            ) {
                let signedIn = session.isSignedIn
                completion(signedIn ? .satisfied : .failed(OperationError.conditionFailed(name: name)))
            }
        }

        /// Stops an operation when a dependency was cancelled, not when one failed.
        struct NoCancelledDependencies: OperationCondition {
            func evaluate(
                for operation: ConditionalOperation,
                completion: @escaping @Sendable (OperationConditionResult) -> Void
            ) {
                let cancelled = operation.dependencies.contains { $0.isCancelled }
                completion(cancelled ? .failed(OperationError.conditionFailed(name: name)) : .satisfied)
            }
        }

        final class ExportOperation: ConditionalOperation, @unchecked Sendable {
            let exporter: Exporter

            init(exporter: Exporter) {
                self.exporter = exporter
                super.init()
            }

            override var finishesWhenCancelled: Bool { false }  // executing until finish

            override func execute() {
                exporter.start { error in self.finish(error: error) }
            }

            override func cancel() {
                super.cancel()
                exporter.stop()  // its completion calls finish
            }
        }

        final class GreetOperation: ResultOperation<String>, @unchecked Sendable {
            private let lock = NSLock()
            private var names: [String] = []  // the input, set before execute()

            func use(_ names: [String]) { lock.withLock { self.names = names } }

            override func execute() {
                let names = lock.withLock { self.names }
                finish(returning: "Hello, \(names.joined(separator: " and "))!")
            }
        }

        // MARK: Samples: code

        func refresh(feed: FeedClient, monitor: QueueMonitor) async -> [any Error] {
            let queue = ConditionalOperationQueue()
            queue.delegate = monitor  // held weakly
            let download = DownloadFeedOperation(feed: feed)
            download.addObserver(TimeoutObserver(timeout: .seconds(30)))
            download.addObserver(
                BlockObserver(didFinish: { operation, errors in
                    print(operation.name ?? "", errors.isEmpty ? "done" : "failed: \(errors)")
                }))
            queue.addOperation(download)
            await download.untilFinished()  // holds no thread
            return download.errors
        }

        func conditionsBeforeDependencies() async -> ConditionalOperation {
            let login = ClosureOperation<Void>(name: "login") { operation in
                operation.finish(error: LoginError.rejected)
            }
            let upload = ClosureOperation<Void>(name: "upload") { operation in operation.finish() }
            upload.addCondition(NoFailedDependencies())  // conditions first…
            upload.addDependency(login)  // …dependencies any time before enqueuing
            let queue = ConditionalOperationQueue()
            queue.addOperation(login)
            queue.addOperation(upload)
            await upload.untilFinished()
            print(upload.errors)  // [1 dependency failed: dependency 'login' failed: rejected]
            return upload
        }

        func counts(on queue: ConditionalOperationQueue) -> (Int, Int) {
            queue.isSuspended = true
            let first = BlockOperation {}
            let second = ClosureOperation<Void>(name: "second") { operation in operation.finish() }
            second.addDependency(first)
            queue.addOperations([first, second], waitUntilFinished: false)
            print(queue.operationCount)  // 0: the queue runs its operations itself
            print(queue.unfinishedOperationCount)  // 2: added and not finished
            return (queue.operationCount, queue.unfinishedOperationCount)
        }

        func groupSharingItsCategory() async -> GroupOperation {
            let upload = ClosureOperation<Void>(name: "upload") { operation in operation.finish() }
            let download = ClosureOperation<Void>(name: "download") { operation in operation.finish() }
            let sync = GroupOperation(operations: [upload, download])
            sync.addCondition(MutuallyExclusive(category: "database"))
            upload.addCondition(MutuallyExclusive(category: "database"))
            download.addCondition(MutuallyExclusive(category: "database"))
            let queue = ConditionalOperationQueue()
            queue.addOperation(sync)
            await sync.untilFinished()  // no deadlock: the children share the group's hold
            return sync
        }

        func signedInPost(session: Session) async -> ConditionalOperation {
            let post = ClosureOperation<Void>(name: "post") { operation in operation.finish() }
            post.addCondition(SignedIn(session: session))
            let queue = ConditionalOperationQueue()
            queue.addOperation(post)  // adds SignInOperation first, as a dependency of `post`
            await post.untilFinished()
            return post
        }

        func failedConditionIsNoCancel() async -> ConditionalOperation {
            let upload = ClosureOperation<Void>(name: "upload") { operation in operation.finish() }
            upload.addCondition(BlockCondition(name: "has network") { false })
            upload.addObserver(
                BlockObserver(
                    didCancel: { _, _ in print("not called: a failed condition is no cancel") },
                    didFinish: { operation, errors in print(operation.isCancelled, errors) }))
            OperationQueue().addOperation(upload)
            await upload.untilFinished()  // prints: false [condition 'has network' failed]
            return upload
        }

        func greeting() async throws -> String {
            let fetch = ClosureOperation<[String]>(name: "fetch") { operation in
                DispatchQueue.global().async { operation.finish(returning: ["Ada", "Grace"]) }
            }
            let greet = GreetOperation()
            greet.inject(from: fetch) { greet, names in greet.use(names) }  // was injectResult(from:)
            let queue = ConditionalOperationQueue()
            queue.addOperation(fetch)
            return try await queue.run(greet)  // "Hello, Ada and Grace!"
        }

        func total(of ledger: Ledger) async throws -> Int {
            let total = AsyncOperation(name: "total") { try await ledger.total() }
            total.addCondition(AsyncCondition(name: "ledger open") { await ledger.isOpen })
            return try await ConditionalOperationQueue().run(total)  // cancelling the task cancels it
        }

        /// The sample of the three guides' "Four things to know about the queue".
        func fourThingsToKnow(session: Session) -> (
            post: ConditionalOperation, fetch: ConditionalOperation, check: ConditionalOperation,
            dependencies: [String?], checkState: ConditionalOperation.State
        ) {
            let queue = ConditionalOperationQueue()
            queue.isSuspended = true  // starts nothing, but still evaluates conditions
            let fetch = ClosureOperation<Void>(name: "fetch") { operation in operation.finish() }
            let post = ClosureOperation<Void>(name: "post") { operation in operation.finish() }
            post.addCondition(SignedIn(session: session))  // its dependency(for:) is a SignInOperation
            post.addDependency(fetch)
            queue.addOperation(post)  // adds the SignInOperation too, which does not wait for fetch
            let dependencies = post.dependencies.map(\.name)  // ["fetch", "sign in"]
            let check = ClosureOperation<Void>(name: "check") { operation in operation.finish() }
            check.addCondition(BlockCondition(name: "online") { true })
            queue.addOperation(check)
            let state = check.state  // .ready: its condition answered; it waits for the queue
            queue.isSuspended = false  // "sign in" and "check" start; fetch is in no queue yet
            queue.addOperations([fetch], waitUntilFinished: true)  // returns once fetch finished
            return (post, fetch, check, dependencies, state)
        }

        // MARK: Running them

        @Test func theFourThingsToKnowAboutTheQueue() async {
            let session = Session()
            let (post, fetch, check, dependencies, checkState) = fourThingsToKnow(session: session)
            #expect(dependencies == ["fetch", "sign in"])
            #expect(checkState == .ready)
            #expect(fetch.isFinished, "addOperations(_:waitUntilFinished: true) waited")
            await post.untilFinished()
            #expect(session.isSignedIn && post.errors.isEmpty)
            await check.untilFinished()
            await expectVoidValue(post, fetch, check)
        }

        /// (a) and (c) of "Four things to know about the queue", shown without the sample's order
        /// of events: the condition's dependency runs while the operation's own dependency is in
        /// no queue, and a suspended queue evaluates the conditions of an operation whose
        /// dependency finished elsewhere, but does not start it.
        @Test func aConditionDependencyRunsBeforeTheOperationsOwnDependencies() async {
            let session = Session()
            let queue = ConditionalOperationQueue()
            let fetch = ClosureOperation<Void>(name: "fetch") { operation in operation.finish() }
            let post = ClosureOperation<Void>(name: "post") { operation in operation.finish() }
            post.addCondition(SignedIn(session: session))
            post.addDependency(fetch)
            queue.addOperation(post)
            let signIn = post.dependencies.compactMap { $0 as? SignInOperation }
            #expect(signIn.count == 1)
            for operation in signIn { await operation.untilFinished() }
            #expect(session.isSignedIn && !fetch.isFinished && post.state == .pending)
            queue.addOperation(fetch)
            await post.untilFinished()
            #expect(post.errors.isEmpty)
        }

        @Test func aSuspendedQueueEvaluatesTheConditionsOfAnOperationWhoseDependenciesFinished()
            async throws
        {
            let queue = ConditionalOperationQueue()
            queue.isSuspended = true
            let fetch = ClosureOperation<Void>(name: "fetch") { operation in operation.finish() }
            let post = ClosureOperation<Void>(name: "post") { operation in operation.finish() }
            post.addCondition(BlockCondition(name: "online") { true })
            post.addDependency(fetch)
            queue.addOperation(post)
            #expect(post.state == .pending)
            OperationQueue().addOperation(fetch)  // finishes elsewhere while the queue is suspended
            try await post.waitUntil(.ready, timeout: .seconds(20))
            #expect(post.state == .ready && queue.isSuspended, "evaluated, not started")
            queue.isSuspended = false
            await post.untilFinished()
            #expect(post.errors.isEmpty)
        }

        @Test func downloadFeedRunsOnceAndTellsTheDelegate() async {
            let feed = FeedClient()
            let monitor = QueueMonitor()
            let errors = await refresh(feed: feed, monitor: monitor)
            #expect(errors.isEmpty)
            #expect(feed.downloads.current == 1)
            #expect(await monitor.finished.wait())
            #expect(monitor.events.all == ["willAdd download feed", "didFinish download feed"])
        }

        @Test func conditionsAddedBeforeDependenciesStopTheDependentOfAFailedLogin() async {
            let upload = await conditionsBeforeDependencies()
            #expect(!upload.isCancelled)
            #expect(
                upload.errors.map { String(describing: $0) } == [
                    "1 dependency failed: dependency 'login' failed: rejected"
                ])
            #expect((upload.errors.first as? OperationError)?.failedDependencies.map(\.name) == ["login"])
        }

        @Test func operationCountCountsNothingUnfinishedOperationCountEverything() async {
            let queue = ConditionalOperationQueue()
            let (count, unfinished) = counts(on: queue)
            let second = queue.unfinishedOperations.filter { $0.name == "second" }
            #expect(count == 0)
            #expect(unfinished == 2)
            let done = Latch()
            queue.addBarrierBlock { done.countDown() }
            queue.isSuspended = false
            #expect(await done.wait())  // the barrier runs once both finished
            #expect(second.count == 1)
            for operation in second { await expectVoidValue(operation) }
        }

        @Test func aGroupAndItsChildrenShareACategoryWithoutDeadlock() async {
            let sync = await groupSharingItsCategory()
            #expect(sync.isFinished && sync.errors.isEmpty)
            for child in sync.children { await expectVoidValue(child) }
        }

        @Test func aConditionDependencySignsInBeforeThePost() async {
            let session = Session()
            let post = await signedInPost(session: session)
            #expect(session.isSignedIn)
            #expect(post.errors.isEmpty && !post.isCancelled)
            #expect(post.dependencies.map(\.name) == ["sign in"])
            await expectVoidValue(post)
        }

        @Test func aSignedInSessionNeedsNoDependency() async {
            let session = Session()
            session.signIn()
            let post = await signedInPost(session: session)
            #expect(post.errors.isEmpty && post.dependencies.isEmpty)
        }

        @Test func noCancelledDependenciesStopsOnACancelledDependencyOnly() async {
            let cancelled = ClosureOperation<Void>(name: "cancelled") { operation in operation.finish() }
            let failed = ClosureOperation<Void>(name: "failed") { operation in
                operation.finish(error: LoginError.rejected)
            }
            let afterCancelled = ProbeOperation()
            afterCancelled.addCondition(NoCancelledDependencies())
            afterCancelled.addDependency(cancelled)
            let afterFailed = ProbeOperation()
            afterFailed.addCondition(NoCancelledDependencies())
            afterFailed.addDependency(failed)
            cancelled.cancel()
            let queue = ConditionalOperationQueue()
            queue.add([cancelled, failed, afterCancelled, afterFailed])
            await afterCancelled.untilFinished()
            await afterFailed.untilFinished()
            #expect(afterCancelled.executions.current == 0)
            #expect(
                afterCancelled.errors.map { String(describing: $0) } == [
                    "condition 'NoCancelledDependencies' failed"
                ])
            #expect(afterFailed.executions.current == 1 && afterFailed.errors.isEmpty)
        }

        @Test func anExportThatFinishesItselfStaysExecutingUntilItsWorkStopped() async {
            let exporter = Exporter()
            let export = ExportOperation(exporter: exporter)
            let after = ProbeOperation()
            after.addDependency(export)
            let queue = ConditionalOperationQueue()
            queue.add([export, after])
            #expect(await exporter.started.wait())
            export.cancel()
            await export.untilFinished()
            await after.untilFinished()
            #expect(export.isCancelled)
            #expect(export.errors.count == 1 && export.errors.first is CancellationError)
            #expect(after.executions.current == 1)
        }

        @Test func aFailedConditionFinishesWithoutCancelling() async {
            let upload = await failedConditionIsNoCancel()
            #expect(!upload.isCancelled)
            #expect(upload.errors.map { String(describing: $0) } == ["condition 'has network' failed"])
        }

        @Test func injectHandsTheNamesToTheGreeting() async throws {
            #expect(try await greeting() == "Hello, Ada and Grace!")
        }

        @Test func anAsyncOperationWithAnAsyncConditionRuns() async throws {
            #expect(try await total(of: Ledger()) == 42)
        }
    }
}
