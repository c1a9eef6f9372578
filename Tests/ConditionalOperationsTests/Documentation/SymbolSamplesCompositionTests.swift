// Twins of the Swift samples in the doc comments of Sources/ConditionalOperations/Composition,
// verbatim (DocumentationSamplesTests checks it), each with the stubs it needs around it: keep them
// the same.
import ConditionalOperations
import ConditionalOperationsTesting
import Foundation
import Testing

private struct User: Sendable, Equatable {
    let name: String
}

private struct FatalError: Error {}

private let url = URL(fileURLWithPath: "/dev/null")

private func download(_ url: URL, completion: @escaping @Sendable (Result<Data, any Error>) -> Void) {
    DispatchQueue.global().async { completion(.success(Data([1, 2, 3]))) }
}

private struct API {
    func users(_ completion: @escaping @Sendable (Result<[User], any Error>) -> Void) {
        DispatchQueue.global().async { completion(.success([User(name: "Ada")])) }
    }
}

private let api = API()

private let saved = Locked<[User]>([])

private func save(_ users: [User]) { saved.withLock { $0 += users } }

/// A minimal lock for the stubs.
private final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<T>(_ body: (inout Value) -> T) -> T { lock.withLock { body(&value) } }
}

private final class FetchUsersOperation: ResultOperation<[User]>, @unchecked Sendable {
    override func execute() {
        api.users { result in self.finish(with: result) }
    }
}

private final class QuickOperation: ConditionalOperation, @unchecked Sendable {
    override func execute() { finish() }
}

private final class ProgressView {
    var observedProgress: Progress?
}

/// Receives its users from another operation.
private final class ProcessOperation: ConditionalOperation, @unchecked Sendable {
    private let lock = NSLock()
    private var received: [User] = []
    var users: [User] {
        get { lock.withLock { received } }
        set { lock.withLock { received = newValue } }
    }
    override func execute() { finish() }
}

// ClosureOperation
private func closureOperation() -> ClosureOperation<Data> {
    let fetch = ClosureOperation<Data>(name: "fetch") { operation in
        download(url) { result in operation.finish(with: result) }
    }
    return fetch
}

// DelayOperation
private func delayOperation(retry: Foundation.Operation) {
    let pause = DelayOperation(interval: .seconds(2))
    retry.addDependency(pause)
}

// RetryBackoff
private func retryBackoffs() -> [RetryBackoff] {
    let backoffs: [RetryBackoff] = [
        .immediate,
        .constant(.seconds(2)),  // 2 s after every failure
        // 0.5, 1, 2, 4 … 30 s, each shortened by up to half (jitter)
        .exponential(initial: .milliseconds(500), multiplier: 2, maximum: .seconds(30)),
        .custom { attempt, errors in errors.contains { $0 is FatalError } ? nil : Double(attempt) },
    ]
    return backoffs
}

// GroupOperation.progress
private func groupProgress(queue: OperationQueue, progressView: ProgressView) -> GroupOperation {
    let download = QuickOperation()
    let unzip = QuickOperation()
    let index = QuickOperation()
    let group = GroupOperation(operations: [download, unzip, index])
    progressView.observedProgress = group.progress  // 3 units; a Cancel button cancels the group
    queue.addOperation(group)
    return group
}

// ConditionalOperation.inject(from:_:)
private func inject(queue: OperationQueue) -> ConditionalOperation {
    final class ProcessUsersOperation: ConditionalOperation, @unchecked Sendable {
        private let lock = NSLock()
        private var users: [User] = []  // behind `lock`: handed over from another thread
        func receive(_ users: [User]) { lock.withLock { self.users = users } }
        override func execute() {
            let users = lock.withLock { self.users }
            save(users)
            finish()
        }
    }

    let fetch = FetchUsersOperation()  // a ResultOperation<[User]>
    let process = ProcessUsersOperation()
    process.inject(from: fetch) { process, users in process.receive(users) }
    queue.addOperations([fetch, process], waitUntilFinished: false)
    return process
}

// RetryOperation
private func retryOperation(process: ProcessOperation) -> RetryOperation<[User]> {
    let fetch = RetryOperation(maximumAttempts: 4, backoff: .exponential(initial: .seconds(1))) { attempt in
        FetchUsersOperation()  // a ResultOperation<[User]>
    }
    process.inject(from: fetch) { process, users in process.users = users }
    return fetch
}

// GroupOperation
private func groupOperation(queue: OperationQueue) -> GroupOperation {
    let download = QuickOperation()
    let unzip = QuickOperation()
    let group = GroupOperation(operations: [download, unzip])
    unzip.addDependency(download)
    group.addObserver(BlockObserver(didFinish: { _, errors in print("all done:", errors) }))
    queue.addOperation(group)
    return group
}

// GroupOperation.child(_:didFinishWith:)
private enum ChildDidFinishWithSample {
    final class SyncAll: GroupOperation, @unchecked Sendable {
        override func child(_ child: Operation, didFinishWith errors: [any Error]) -> [any Error] {
            errors.filter { !($0 is CancellationError) }  // a cancelled child is no failure here
        }
    }
}

// GroupOperation.maxConcurrentChildren
private final class DownloadOperation: ConditionalOperation, @unchecked Sendable {
    let file: String
    init(file: String) { self.file = file }
}

private func maxConcurrentChildren(files: [String]) -> GroupOperation {
    let downloads = GroupOperation(operations: files.map { DownloadOperation(file: $0) })
    downloads.maxConcurrentChildren = 2
    return downloads
}

// RepeatOperation
private enum JobStatus: Sendable { case running, done }

private final class CheckJobOperation: ResultOperation<JobStatus>, @unchecked Sendable {
    override func execute() { finish(returning: .done) }
}

private func repeatOperation(jobIsDone: @escaping @Sendable () -> Bool) -> RepeatOperation<JobStatus> {
    let poll = RepeatOperation(maximumCount: 10, interval: .constant(.seconds(5))) { iteration in
        iteration == 1 || !jobIsDone() ? CheckJobOperation() : nil  // a ResultOperation<JobStatus>
    }
    return poll
}

// RepeatOperation.init(maximumCount:interval:makeIteration:), with the previous output
private func repeatOperationUntilDone() -> RepeatOperation<JobStatus> {
    let poll = RepeatOperation<JobStatus>(interval: .constant(.seconds(5))) { _, previous in
        previous == .done ? nil : CheckJobOperation()  // a ResultOperation<JobStatus>
    }
    return poll
}

// ResultOperation.map(_:)
private func map(queue: OperationQueue) async throws -> [String] {
    let fetch = FetchUsersOperation()  // a ResultOperation<[User]>
    let names = fetch.map { users in users.map(\.name) }  // a ResultOperation<[String]>
    queue.addOperation(fetch)
    let userNames = try await queue.run(names)
    return userNames
}

// GroupOperation.isSuspended
private final class UploadOperation: ConditionalOperation, @unchecked Sendable {
    let file: String
    init(file: String) { self.file = file }
}

private func suspendedUploads(files: [String], queue: OperationQueue) -> GroupOperation {
    let uploads = GroupOperation(operations: files.map { UploadOperation(file: $0) })
    uploads.maxConcurrentChildren = 2
    queue.addOperation(uploads)
    // … the network goes away:
    uploads.isSuspended = true  // the running uploads finish; no other one starts
    // … and comes back:
    uploads.isSuspended = false  // two at a time again
    return uploads
}

// ResultOperation
private enum ResultOperationSample {
    final class FetchUsers: ResultOperation<[User]>, @unchecked Sendable {
        override func execute() {
            api.users { result in self.finish(with: result) }
        }
    }
}

extension ConditionalOperationsTests {
    @Suite struct SymbolSamplesCompositionTests {
        @Test func aClosureOperation() async throws {
            let data = try await OperationQueue().run(closureOperation())
            #expect(data == Data([1, 2, 3]))
        }

        @Test func aDelayBeforeARetry() {
            let retry = QuickOperation()
            delayOperation(retry: retry)
            #expect(retry.dependencies.first is DelayOperation)
        }

        @Test func backoffs() {
            #expect(retryBackoffs().count == 4)
        }

        @Test func aGroupsProgress() async throws {
            let progressView = ProgressView()
            let group = groupProgress(queue: OperationQueue(), progressView: progressView)
            try await group.untilFinished(timeout: .seconds(5))
            #expect(progressView.observedProgress?.totalUnitCount == 3)
        }

        @Test func anInjection() async throws {
            let process = inject(queue: OperationQueue())
            try await process.untilFinished(timeout: .seconds(5))
            #expect(saved.withLock { $0 }.contains(User(name: "Ada")))
        }

        @Test func aRetriedInjection() async throws {
            let process = ProcessOperation()
            let fetch = retryOperation(process: process)
            let queue = OperationQueue()
            queue.addOperation(fetch)
            queue.addOperation(process)
            try await process.untilFinished(timeout: .seconds(5))
            #expect(process.users == [User(name: "Ada")])
        }

        @Test func aGroup() async throws {
            let group = groupOperation(queue: OperationQueue())
            try await group.untilFinished(timeout: .seconds(5))
            #expect(group.errors.isEmpty)
        }

        @Test func aGroupThatIgnoresCancelledChildren() async throws {
            let group = ChildDidFinishWithSample.SyncAll(operations: [
                ClosureOperation<Void> { $0.finish(error: CancellationError()) }
            ])
            try await OperationQueue().run(group)
            #expect(group.errors.isEmpty)
        }

        @Test func aGroupOfTwoDownloadsAtATime() async throws {
            let downloads = maxConcurrentChildren(files: ["a", "b", "c"])
            try await OperationQueue().run(downloads)
            #expect(downloads.children.count == 3)
        }

        @Test func aRepeatOperationPolling() async throws {
            let poll = repeatOperation(jobIsDone: { true })
            #expect(try await OperationQueue().run(poll) == .done)
            #expect(poll.iterationCount == 1)
        }

        @Test func aRepeatOperationUntilThePreviousOutputIsDone() async throws {
            let poll = repeatOperationUntilDone()
            let first = Latch()
            poll.addObserver(BlockObserver(didStart: { _ in first.countDown() }))
            OperationQueue().addOperation(poll)
            #expect(await first.wait())
            // The next question comes after the interval's 5 s: the first check is enough here.
            await waitUntil(seconds: 10) { poll.iterationCount == 1 }
            poll.cancel()
            await poll.untilFinished()
            #expect(poll.iterationCount == 1)
        }

        @Test func aMappedResult() async throws {
            #expect(try await map(queue: ConditionalOperationQueue()) == ["Ada"])
        }

        @Test func suspendedAndResumedUploads() async throws {
            let uploads = suspendedUploads(files: ["a", "b", "c"], queue: OperationQueue())
            try await uploads.untilFinished(timeout: .seconds(5))
            #expect(uploads.children.allSatisfy { $0.isFinished })
        }

        @Test func aResultOperation() async throws {
            let users = try await OperationQueue().run(ResultOperationSample.FetchUsers())
            #expect(users == [User(name: "Ada")])
        }
    }
}
