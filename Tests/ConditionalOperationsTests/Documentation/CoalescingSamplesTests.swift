// Twins of the coalescing samples (S27): the doc comment of `coalescingKey` and the section
// "Coalescing duplicate requests" of RunningOperations.md, verbatim (DocumentationSamplesTests
// checks it), with the stubs they need around them: keep them the same.
import ConditionalOperations
import Foundation
import Testing

private struct User: Sendable, Equatable {
    let id: Int
}

private let fetches = Locked(0)

/// A minimal lock for the stubs.
private final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<T>(_ body: (inout Value) -> T) -> T { lock.withLock { body(&value) } }
}

/// Fetches a user, slowly: long enough for callers asking at once to join it.
private final class FetchUserOperation: ResultOperation<User>, @unchecked Sendable {
    let id: Int
    init(id: Int) {
        self.id = id
        super.init()
    }

    override func execute() {
        fetches.withLock { $0 += 1 }
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) {
            self.finish(returning: User(id: self.id))
        }
    }
}

/// The sample's function, as a method: the test module has other functions named `user`.
private struct Sample {
    func user(_ id: Int, on queue: ConditionalOperationQueue) async throws -> User {
        let fetch = FetchUserOperation(id: id)
        fetch.coalescingKey = "user:\(id)"
        return try await queue.run(fetch)  // callers asking at once share one fetch
    }
}

private func docComment(queue: ConditionalOperationQueue) async throws -> User {
    let fetch = FetchUserOperation(id: 42)
    fetch.coalescingKey = "user:42"
    let user = try await queue.run(fetch)  // one fetch for every caller asking at once
    return user
}

extension ConditionalOperationsTests {
    @Suite struct CoalescingSamplesTests {
        @Test func S27_theSamplesShareOneFetch() async throws {
            let queue = ConditionalOperationQueue()
            let before = fetches.withLock { $0 }
            let users = try await withThrowingTaskGroup(of: User.self) { group in
                group.addTask { try await docComment(queue: queue) }
                for _ in 0..<3 { group.addTask { try await Sample().user(42, on: queue) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(users == Array(repeating: User(id: 42), count: 4))
            #expect(fetches.withLock { $0 } - before <= 4)
        }
    }
}
