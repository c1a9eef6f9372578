// The README's Swift samples, in order, exactly as a reader pastes them into a main.swift
// (DocumentationSamplesTests checks that this file holds them and nothing else).
import ConditionalOperations
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

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

let url = URL(string: "https://example.com")!
let download = DownloadOperation(url: url)
download.addCondition(BlockCondition(name: "https") { url.scheme == "https" })
download.addObserver(
    BlockObserver(didFinish: { operation, errors in
        print("download", errors.isEmpty ? "succeeded" : "failed: \(errors)")
    }))
download.addObserver(TimeoutObserver(timeout: .seconds(10)))
let queue = ConditionalOperationQueue()
queue.addOperation(download)
await download.untilFinished()  // returns once it finished, holding no thread

final class SyncOperation: ConditionalOperation, @unchecked Sendable {
    override func execute() { finish() }  // the work of one sync
}

let sync = SyncOperation()
sync.addCondition(MutuallyExclusive(SyncOperation.self))  // never two syncs at once, any queue
sync.addCondition(NoFailedDependencies())  // not if what it depends on failed
sync.addObserver(TimeoutObserver(timeout: .seconds(30)))  // cancelled with .timedOut after 30 s

final class Monitor: ConditionalOperationQueueDelegate {
    func operationQueue(
        _ queue: ConditionalOperationQueue, operationDidFinish operation: Operation, errors: [any Error]
    ) {
        if !errors.isEmpty { print(operation.name ?? "an operation", "failed:", errors) }
    }
}

let monitor = Monitor()
queue.delegate = monitor  // every operation added and finished
let chain = (1...10_000).map { _ in BlockOperation {} }
for (first, next) in zip(chain, chain.dropFirst()) { next.addDependency(first) }
ConditionalOperationQueue().addOperations(chain, waitUntilFinished: false)  // linear time, not quadratic

func fetchTotal() async throws -> Int { 42 }  // your async API
func isSignedIn() async -> Bool { true }

let sum = AsyncOperation(name: "sum") { try await fetchTotal() }  // async work, run in a task
sum.addCondition(AsyncCondition(name: "signed in") { await isSignedIn() })
// cancelling this task cancels `sum`; returns once it finished
let total = try await queue.run(sum)

let fetchUsers = AsyncOperation(name: "users") { ["Ada", "Grace"] }
queue.addOperation(fetchUsers)
let users = try await fetchUsers.value  // the value, or its first error

let upload = AsyncOperation(name: "upload") { print("uploading \(total) for \(users)") }
let events = upload.events  // asked for before it runs: every event from now on
queue.addOperation(upload)
for await event in events { print(event) }  // stateChanged(…), didStart, …, didFinish

let waiting = SyncOperation()
waiting.addDependency(sync)
print(waiting.diagnosis)
// SyncOperation (initialized): waiting for 1 dependency: SyncOperation (initialized)
queue.addOperation(waiting)
print(waiting.diagnosis)
// SyncOperation (pending): waiting for 1 dependency: SyncOperation (initialized)
print(queue.diagnosticReport)  // every unfinished operation of the queue, one line each
queue.logger = BlockLogger { print($0) }  // state changes, condition answers, waits, finishes
sync.addDeadline(after: .seconds(30))  // timedOut, whatever it is still waiting for
try await queue.run(sync)  // then `waiting` runs
