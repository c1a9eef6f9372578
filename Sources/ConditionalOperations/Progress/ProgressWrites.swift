import Foundation

/// Serialises the library's writes to `Progress` objects on swift-corelibs-foundation.
///
/// There `Progress` has no lock of its own: a child completing on one thread updates its
/// parent's counts while another thread writes them, and an update can be lost. Its writes run no
/// user code there (no KVO; `cancellationHandler` is dispatched to another thread), so a lock
/// around them is safe. Apple's `Progress` is thread-safe and tells KVO observers synchronously,
/// which must never run under a lock of the library: there the writes are made as they come.
enum ProgressWrites {
    #if !canImport(ObjectiveC)
        /// Not `Locked<Void>`: ThreadSanitizer takes the access to an empty value for an access
        /// to the lock's own header, and reports a race.
        private static let lock = Locked(false)
    #endif

    /// Runs `body`, which writes to progress objects, serialised with the library's other writes.
    @inline(__always)
    static func perform<Result>(_ body: () -> Result) -> Result {
        #if canImport(ObjectiveC)
            return body()
        #else
            return lock.withLock { _ in body() }
        #endif
    }
}
