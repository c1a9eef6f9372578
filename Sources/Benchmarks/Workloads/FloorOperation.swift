import Foundation

/// The least an asynchronous `Operation` can do: `isExecuting` and `isFinished` under a lock, their
/// KVO notifications sent, finished as soon as it started. The Operation floor's unit: what any
/// `Operation` costs before a queue adds anything.
final class FloorOperation: Operation, @unchecked Sendable {
    // mutable state: `executing` and `finished`, behind `lock`
    private let lock = NSLock()
    private var executing = false
    private var finished = false

    override var isAsynchronous: Bool { true }
    override var isExecuting: Bool { lock.withLock { executing } }
    override var isFinished: Bool { lock.withLock { finished } }

    override func start() {
        willChangeValue(forKey: "isExecuting")
        lock.withLock { executing = true }
        didChangeValue(forKey: "isExecuting")
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
