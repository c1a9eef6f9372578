// Twins of the Swift samples in the doc comments of Sources/ConditionalOperations/Concurrency,
// verbatim (DocumentationSamplesTests checks it), each with the stubs it needs around it: keep them
// the same.
import ConditionalOperations
import ConditionalOperationsTesting
import Foundation
import Testing

private struct User: Sendable, Equatable {
    let name: String
}

private struct API {
    func users() async throws -> [User] { [User(name: "Ada")] }
}

private let api = API()

private final class SaveOperation: ConditionalOperation, @unchecked Sendable {
    init(_ document: String) { super.init() }
    override func execute() { finish() }
}

private final class SumOperation: ResultOperation<Int>, @unchecked Sendable {
    let numbers: [Int]
    init(_ numbers: [Int]) { self.numbers = numbers }
    override func execute() { finish(with: .success(numbers.reduce(0, +))) }
}

private final class FetchUsers: ResultOperation<[User]>, @unchecked Sendable {
    override func execute() { finish(with: .success([User(name: "Ada")])) }
}

extension ConditionalOperationsTests {
    @Suite struct SymbolSamplesConcurrencyTests {
        // OperationQueue.run(_:)
        @Test func runningAnOperation() async throws {
            let queue = OperationQueue()
            let document = "notes"
            let numbers = [1, 2, 3]
            try await queue.run(SaveOperation(document))
            let total = try await queue.run(SumOperation(numbers))
            #expect(total == 6)
        }

        // AsyncOperation
        @Test func anAsyncOperation() async throws {
            let queue = OperationQueue()
            let fetch = AsyncOperation(name: "fetch") { try await api.users() }
            fetch.addCondition(MutuallyExclusive(category: "network"))
            let users = try await queue.run(fetch)
            #expect(users == [User(name: "Ada")])
        }

        // ConditionalOperation.events
        @Test func theEventsOfAnOperation() async throws {
            let operation = FetchUsers()
            OperationQueue().addOperation(operation)
            for await event in operation.events {
                if case .stateChanged(let state) = event { print("now", state) }
            }
            #expect(operation.isFinished)
        }

        // ConditionalOperation.untilFinished()
        @Test func waitingUntilAnOperationFinished() async {
            let queue = OperationQueue()
            let download = SaveOperation("download")
            queue.addOperation(download)
            await download.untilFinished()
            print(download.errors)
            #expect(download.isFinished)
        }

        // ResultOperation.value
        @Test func theValueOfAResultOperation() async throws {
            let queue = OperationQueue()
            let fetch = FetchUsers()
            queue.addOperation(fetch)
            let users = try await fetch.value
            #expect(users == [User(name: "Ada")])
        }
    }
}
