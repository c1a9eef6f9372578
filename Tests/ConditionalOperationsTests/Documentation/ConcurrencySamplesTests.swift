import ConditionalOperations
import Foundation
import Testing

extension ConditionalOperationsTests {
    /// The samples of the DocC article `Concurrency.md`, verbatim, with the stubs they need (checked by
    /// `DocumentationSamplesTests`).
    @Suite struct ConcurrencySamplesTests {
        // MARK: Stubs the samples use (not in the guide)

        struct API: Sendable {
            func upload(_ file: URL) async throws -> Int { 1 }
        }

        actor Session {
            var isSignedIn = true
        }

        @MainActor final class ViewModel {
            var isBusy = true
        }

        // MARK: Samples

        enum Request {
            @TaskLocal static var id: String?
        }

        @Test func taskContext() async throws {
            let queue = ConditionalOperationQueue()
            let handler = AsyncOperation(name: "handle") { "handled \(Request.id ?? "?")" }
            let answer = try await Request.$id.withValue("req-42") { try await queue.run(handler) }
            // answer is "handled req-42"
            #expect(answer == "handled req-42")
        }

        func asyncWork(queue: ConditionalOperationQueue) async throws -> Int {
            let sum = AsyncOperation(name: "sum") { (1...100).reduce(0, +) }
            let total = try await queue.run(sum)  // 5050; `run` infers the Int
            return total
        }

        func asyncWorkWithConditions(
            api: API, file: URL, session: Session, compress: Foundation.Operation
        ) -> AsyncOperation<Int> {
            let upload = AsyncOperation(name: "upload") { try await api.upload(file) }
            upload.addCondition(AsyncCondition(name: "signed in") { await session.isSignedIn })
            upload.addCondition(MutuallyExclusive(category: "network"))
            upload.addDependency(compress)
            return upload
        }

        final class Countdown: AsyncOperation<[Int]>, @unchecked Sendable {
            let from: Int
            init(from: Int) {
                self.from = from
                super.init()
            }
            override func run() async throws -> [Int] { Array((1...from).reversed()) }
        }

        func completionHandlerWork() -> ClosureOperation<[String]> {
            let fetch = ClosureOperation<[String]>(name: "fetch") { operation in
                DispatchQueue.global().async { operation.finish(returning: ["ada", "grace"]) }
            }
            return fetch
        }

        func cancelTheCaller(queue: ConditionalOperationQueue, upload: ConditionalOperation) -> Task<
            Void, any Error
        > {
            let caller = Task { try await queue.run(upload) }
            caller.cancel()  // cancels `upload`; `run` throws once `upload` finished
            return caller
        }

        func watch(queue: ConditionalOperationQueue) async -> AsyncOperation<Int> {
            let watched = AsyncOperation(name: "watched") { 42 }
            let events = watched.events
            queue.addOperation(watched)
            for await event in events {
                print(event)
            }
            // stateChanged(initialized), stateChanged(ready), stateChanged(executing), didStart,
            // stateChanged(finishing), stateChanged(finished), didFinish([])
            return watched
        }

        func observeOnTheMainActor(operation: ConditionalOperation, viewModel: ViewModel) {
            operation.addObserver(
                MainActorObserver(didFinish: { _, errors in
                    viewModel.isBusy = false  // a @MainActor view model
                }))
        }

        // MARK: Running them

        @Test func asyncWorkSumsTheNumbers() async throws {
            #expect(try await asyncWork(queue: ConditionalOperationQueue()) == 5050)
        }

        @Test func anUploadWaitsForItsDependencyAndConditions() async throws {
            let compress = ClosureOperation<Void>(name: "compress") { $0.finish() }
            let upload = asyncWorkWithConditions(
                api: API(), file: URL(fileURLWithPath: "file"), session: Session(), compress: compress)
            let queue = ConditionalOperationQueue()
            queue.addOperation(compress)
            #expect(try await queue.run(upload) == 1)
        }

        @Test func theCountdownCountsDown() async throws {
            #expect(try await ConditionalOperationQueue().run(Countdown(from: 3)) == [3, 2, 1])
        }

        @Test func theClosureOperationFinishesWithItsNames() async throws {
            #expect(try await ConditionalOperationQueue().run(completionHandlerWork()) == ["ada", "grace"])
        }

        @Test func cancellingTheCallerEndsItsRun() async {
            let upload = AsyncOperation<Void>(name: "upload") {
                try await Task.sleep(for: .seconds(60))  // ended by the cancel
            }
            let caller = cancelTheCaller(queue: ConditionalOperationQueue(), upload: upload)
            let result = await caller.result
            #expect(throws: CancellationError.self) { try result.get() }
            #expect(upload.isCancelled && upload.isFinished)
        }

        @Test func theEventsEndOnceTheOperationFinished() async {
            let watched = await watch(queue: ConditionalOperationQueue())
            #expect(watched.isFinished && watched.errors.isEmpty)
        }

        @Test @MainActor func theMainActorObserverUpdatesTheViewModel() async {
            let viewModel = ViewModel()
            let operation = ClosureOperation<Void>(name: "operation") { $0.finish() }
            observeOnTheMainActor(operation: operation, viewModel: viewModel)
            let updated = AsyncStream<Void>.makeStream()
            operation.addObserver(MainActorObserver(didFinish: { _, _ in updated.continuation.finish() }))
            OperationQueue().addOperation(operation)
            for await _ in updated.stream {}
            #expect(!viewModel.isBusy)
        }
    }
}
