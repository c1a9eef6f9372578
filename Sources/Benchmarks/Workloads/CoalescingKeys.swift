import ConditionalOperations
import Foundation

/// S27's contenders: the library's no-op operation with a coalescing key, on a
/// `ConditionalOperationQueue`.
extension Contender {
    /// Each operation with a key of its own: nothing to join, the cost of looking.
    static let uniqueKeyOnConditionalQueue = Contender(
        make: {
            let operation = NoopOperation()
            operation.coalescingKey = KeyCounter.shared.next()
            return operation
        }, queue: .conditional)

    /// Every operation with one key: those added while one runs join it instead of executing.
    static let sharedKeyOnConditionalQueue = Contender(
        make: {
            let operation = NoopOperation()
            operation.coalescingKey = "shared"
            return operation
        }, queue: .conditional)
}

/// Hands out distinct keys to the contenders.
private final class KeyCounter: @unchecked Sendable {
    // mutable state: `count`, behind `lock`
    static let shared = KeyCounter()
    private let lock = NSLock()
    private var count = 0

    func next() -> String {
        lock.withLock {
            count += 1
            return "key \(count)"
        }
    }
}
