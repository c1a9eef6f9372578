import Foundation

/// The plain operation this thread is handing to Foundation's own scheduler
/// (``ConditionalOperationQueue/handToFoundation(_:holdingASlot:)``), if any.
///
/// No Foundation promises which of its entry points `OperationQueue.addOperation(_:)` goes
/// through: one that routes into `addOperations(_:waitUntilFinished:)` (or back) reaches the
/// queue's own overrides with an operation the queue admitted already. They pass it on to
/// Foundation's own method instead of admitting it again.
enum FoundationHandOff {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Whether this thread is handing `operation` over now.
    @inline(__always)
    static func isHanding(_ operation: Foundation.Operation) -> Bool {
        guard let handed = pthread_getspecific(key) else { return false }
        return handed == Unmanaged.passUnretained(operation).toOpaque()
    }

    /// Runs `body`, which hands `operation` over, with `operation` marked as this thread's.
    static func handing(_ operation: Foundation.Operation, _ body: () -> Void) {
        let outer = pthread_getspecific(key)
        pthread_setspecific(key, Unmanaged.passUnretained(operation).toOpaque())
        body()
        pthread_setspecific(key, outer)
    }
}
