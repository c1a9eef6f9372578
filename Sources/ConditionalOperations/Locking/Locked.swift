import Foundation

/// The library's one lock: a value behind a `pthread_mutex_t`, both in one allocation.
///
/// ThreadSanitizer intercepts `pthread_mutex_lock` on every platform, so a user's
/// `swift test --sanitize=thread` sees the library's locking. It cannot see
/// `Synchronization.Mutex` on Linux (its futex is in uninstrumented code), which would make every
/// access it guards look like a race; `Mutex` also needs macOS 15 / iOS 18. Copyable: copies
/// share the value and the lock.
struct Locked<Value>: @unchecked Sendable {
    // the value is only reached under the mutex
    private final class Storage: ManagedBuffer<Value, pthread_mutex_t> {
        deinit {
            _ = withUnsafeMutablePointerToElements { pthread_mutex_destroy($0) }
        }
    }

    private let storage: Storage

    init(_ value: Value) {
        let buffer = Storage.create(minimumCapacity: 1) { _ in value }
        storage = unsafeDowncast(buffer, to: Storage.self)
        storage.withUnsafeMutablePointerToElements { MutexAttributes.initialize($0) }
    }

    /// Runs `body` with exclusive access to the value. Never call out to user code from `body`.
    /// `counted`: whether `-DLOCK_COUNTING` builds count the trip (`LockCounter`'s own are not).
    @inline(__always)
    func withLock<Result>(counted: Bool = true, _ body: (inout Value) throws -> Result) rethrows -> Result {
        try storage.withUnsafeMutablePointers { value, mutex in
            try mutex.withLock(counted: counted) { try body(&value.pointee) }
        }
    }
}
