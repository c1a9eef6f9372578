import Foundation

/// A subclass's own state lives under the operation's lock, the one its state machine is behind:
/// an operation has one lock, and that state costs no allocation and no mutex of its own
/// (`ResultOperation`'s output, `AsyncOperation`'s task).
///
/// That mutex is one of ``LockTable``'s: not recursive, and shared with other operations. A
/// closure run under it must not take any operation's lock (`state`, `isCancelled`, `errors`,
/// `finish`, `cancel`, …), must not call user code, and must not let go of the last reference to
/// anything, since a deinit may take the same mutex: swap the value out and let it go once unlocked.
extension ConditionalOperation {
    /// Runs `body` under the operation's own lock, for state a subclass keeps in stored properties
    /// (marked `@exclusivity(unchecked)`: the lock already makes every access exclusive).
    ///
    /// `package`: the networking module of this package (`DataTaskOperation`) keeps its task under
    /// this lock; it is not API for the package's users.
    @inline(__always)
    package func withOwnLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        try LockTable.mutex(for: ObjectIdentifier(self)).withLock(body)
    }
}
