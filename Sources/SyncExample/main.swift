// The program of the article "Fetch a list, fan out, save exclusively" (FetchFanOutSave.md): its
// Swift blocks, in order, are this file. CI runs it as `swift run SyncExample`.
import ConditionalOperations
import Foundation

/// A stand-in for a web service: a list of items, then each item's details. The first request for
/// every third item fails, as a flaky network does.
actor Service {
    private var requests: [Int: Int] = [:]
    private(set) var retried = 0

    func list() async throws -> [Int] {
        try await Task.sleep(for: .milliseconds(20))
        return Array(1...12)
    }

    func details(of id: Int) async throws -> String {
        requests[id, default: 0] += 1
        try await Task.sleep(for: .milliseconds(20))
        guard id % 3 != 0 || requests[id] != 1 else {
            retried += 1
            throw URLError(.timedOut)
        }
        return "item \(id)"
    }
}

/// A stand-in for a database that must never see two writes at once: it counts any overlap.
final class Database: @unchecked Sendable {
    // mutable state: `rows`, `writing` and `overlaps`, behind `lock`
    private let lock = NSLock()
    private var rows: [String] = []
    private var writing = 0
    private var overlaps = 0

    func save(_ row: String) {
        locked {
            writing += 1
            if writing > 1 { overlaps += 1 }
        }
        Thread.sleep(forTimeInterval: 0.002)  // the write
        locked {
            rows.append(row)
            writing -= 1
        }
    }

    var summary: (rows: Int, overlaps: Int) { locked { (rows.count, overlaps) } }

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}

let service = Service()
let database = Database()
let queue = ConditionalOperationQueue()
queue.name = "sync"

// The rules every request and every write follows, made once and shared.
let serviceRate = RateLimit("service", permits: 20, per: .seconds(1))
let databaseWrites = ExclusivityCategory("database")

// The list, tried up to three times, waiting longer after each failure.
let fetchList = RetryOperation(maximumAttempts: 3, backoff: .exponential(initial: .milliseconds(50))) { _ in
    let attempt = AsyncOperation(name: "fetch list") { try await service.list() }
    attempt.addCondition(serviceRate)
    return attempt
}
fetchList.name = "fetch list"

/// One item: its details, retried, then saved with no other write at the same time.
func fetchAndSave(_ id: Int) -> [Operation] {
    let fetch = RetryOperation(maximumAttempts: 3, backoff: .constant(.milliseconds(20))) { _ in
        let attempt = AsyncOperation(name: "fetch \(id)") { try await service.details(of: id) }
        attempt.addCondition(serviceRate)
        return attempt
    }
    fetch.name = "fetch \(id)"
    let save = fetch.map { details in database.save(details) }
    save.name = "save \(id)"
    save.addCondition(MutuallyExclusive(databaseWrites))
    return [fetch, save]
}

// Once the list is there, one fetch and one save per item, three at a time.
let sync = GroupOperation()
sync.name = "sync"
sync.maxConcurrentChildren = 3
sync.inject(from: fetchList) { sync, ids in
    for id in ids { sync.addOperations(fetchAndSave(id)) }
}

queue.addOperation(fetchList)
try await queue.run(sync)

let (rows, overlaps) = database.summary
print("saved \(rows) items, \(await service.retried) fetches retried, \(overlaps) overlapping writes")
if rows != 12 || overlaps != 0 { exit(1) }
