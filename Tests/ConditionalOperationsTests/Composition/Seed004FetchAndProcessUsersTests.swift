import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests.CompositionTests {
    /// The seed-004 scenario, as in the DocC article ComposingOperations.md: fetch users, then process them,
    /// typed, with no glue operation between the two.
    @Suite struct Seed004FetchAndProcessUsersTests {
        struct User: Sendable, Equatable {
            let id: Int
            let name: String
            let isActive: Bool
        }

        enum FetchError: Error, Equatable {
            case offline
        }

        /// Produces users without a network: fake ones, after a hop to another thread as a real
        /// request would.
        final class FetchUsersOperation: ResultOperation<[User]>, @unchecked Sendable {
            // stored state: lets only
            let failure: FetchError?

            init(failing failure: FetchError? = nil) {
                self.failure = failure
                super.init()
            }

            override func execute() {
                DispatchQueue.global().async { [self] in
                    if let failure { return finish(with: .failure(failure)) }
                    finish(returning: [
                        User(id: 1, name: "Ada", isActive: true),
                        User(id: 2, name: "Brian", isActive: false),
                        User(id: 3, name: "Grace", isActive: true),
                    ])
                }
            }
        }

        /// Turns the users it is handed into the names of the active ones.
        final class ProcessUsersOperation: ResultOperation<[String]>, @unchecked Sendable {
            // mutable state: behind `users`' lock
            private let users = Locked<[User]>([])

            func use(_ users: [User]) {
                self.users.withLock { $0 = users }
            }

            override func execute() {
                let users = self.users.withLock { $0 }
                finish(returning: users.filter(\.isActive).map(\.name))
            }
        }

        @Test func fetchedUsersAreProcessedWithoutAGlueOperation() async throws {
            let fetch = FetchUsersOperation()
            let process = ProcessUsersOperation()
            process.inject(from: fetch) { process, users in process.use(users) }
            let queue = ConditionalOperationQueue()
            let added = Counter()
            let delegate = CountingDelegate(added: added)
            queue.delegate = delegate
            queue.addOperations([fetch, process], waitUntilFinished: false)
            await process.untilFinished()
            #expect(try process.result?.get() == ["Ada", "Grace"])
            #expect(added.current == 2, "two operations, no glue")
            #expect(process.dependencies == [fetch])
        }

        @Test func aFailedFetchFinishesTheProcessingWithoutRunningIt() async {
            let fetch = FetchUsersOperation(failing: .offline)
            let process = ProcessUsersOperation()
            process.inject(from: fetch) { process, users in process.use(users) }
            OperationQueue().add([process, fetch])
            await process.untilFinished()
            #expect(fetch.errors.map { $0 as? FetchError } == [.offline])
            #expect(
                process.errors.map { $0 as? OperationError } == [
                    .dependenciesFailed([.expected("FetchUsersOperation", [FetchError.offline])])
                ])
            #expect(
                process.errors.first.map { "\($0)" }
                    == "1 dependency failed: dependency 'FetchUsersOperation' failed: offline")
            #expect(process.result.map { (try? $0.get()) == nil } == true)
        }

        @Test func aFlakyFetchIsRetried() async throws {
            let fetch = RetryOperation(maximumAttempts: 3, backoff: .exponential(initial: .seconds(0.01))) {
                attempt in
                FetchUsersOperation(failing: attempt < 3 ? .offline : nil)
            }
            let process = ProcessUsersOperation()
            process.inject(from: fetch) { process, users in process.use(users) }
            OperationQueue().add([fetch, process])
            await process.untilFinished()
            #expect(fetch.attemptCount == 3)
            #expect(try process.result?.get() == ["Ada", "Grace"])
        }

        final class CountingDelegate: ConditionalOperationQueueDelegate {
            let added: Counter

            init(added: Counter) { self.added = added }

            func operationQueue(_ queue: ConditionalOperationQueue, willAdd operation: Foundation.Operation) {
                added.increment()
            }
        }
    }
}
