import Foundation

/// A value behind a `pthread_mutex_t`, stored with the value in one allocation; copyable, unlike
/// `Mutex`, for state that is not on a hot path.
///
/// On Linux ThreadSanitizer cannot see `Synchronization.Mutex` (its futex-based locking happens
/// in uninstrumented code) and reports every access it protects as a race. It intercepts
/// `pthread_mutex_lock`, so this lock is visible; see ``StateLock`` for the hot ones.
struct Locked<Value>: @unchecked Sendable {  // the value is only reached under the mutex
    private final class Storage: ManagedBuffer<Value, pthread_mutex_t> {
        deinit {
            _ = withUnsafeMutablePointerToElements { pthread_mutex_destroy($0) }
        }
    }

    private let storage: Storage

    init(_ value: Value) {
        let buffer = Storage.create(minimumCapacity: 1) { _ in value }
        storage = unsafeDowncast(buffer, to: Storage.self)
        _ = storage.withUnsafeMutablePointerToElements { pthread_mutex_init($0, nil) }
    }

    /// Runs `body` with exclusive access to the value. Never call out to user code from `body`.
    @inline(__always)
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try storage.withUnsafeMutablePointers { value, mutex in
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body(&value.pointee)
        }
    }
}
