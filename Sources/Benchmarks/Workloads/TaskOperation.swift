import Foundation

/// The asynchronous `Operation` subclass people write by hand to run `async` work in a `Task`:
/// Foundation's side of the `async-operation` scenario.
final class TaskOperation: Operation, @unchecked Sendable {
    // mutable state: `executing` and `finished`, behind `lock`
    private let lock = NSLock()
    private var executing = false
    private var finished = false
    private let body: @Sendable () async -> Void

    init(_ body: @escaping @Sendable () async -> Void) {
        self.body = body
    }

    override var isAsynchronous: Bool { true }
    override var isExecuting: Bool { lock.withLock { executing } }
    override var isFinished: Bool { lock.withLock { finished } }

    override func start() {
        guard !isCancelled else { return end() }
        willChangeValue(forKey: "isExecuting")
        lock.withLock { executing = true }
        didChangeValue(forKey: "isExecuting")
        Task {
            await body()
            end()
        }
    }

    private func end() {
        willChangeValue(forKey: "isExecuting")
        willChangeValue(forKey: "isFinished")
        lock.withLock {
            executing = false
            finished = true
        }
        didChangeValue(forKey: "isExecuting")
        didChangeValue(forKey: "isFinished")
    }
}
