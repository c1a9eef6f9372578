import Foundation

/// A value behind an `NSLock`, for state the operations share.
///
/// `Synchronization.Mutex` would do on macOS 15 / iOS 18 and later; this example runs where the
/// library does (macOS 13, iOS 16, Linux), and ThreadSanitizer sees an `NSLock` on every platform.
final class Protected<Value: Sendable>: @unchecked Sendable {
    // `value` is only reached under `lock`
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.withLock { body(&value) }
    }
}
