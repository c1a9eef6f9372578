import ConditionalOperationsMachines

#if !canImport(ObjectiveC) && !APPLE_FOUNDATION_PATHS
    import Synchronization
#endif

/// An operation's ``ReadinessHint``, readable without its lock where Foundation polls.
///
/// Only swift-corelibs-foundation asks `isReady` of every waiting operation on each scheduling
/// pass; Apple's Foundation listens to KVO instead, and `Atomic` needs macOS 15 there. So on Apple
/// platforms (and in `-DAPPLE_FOUNDATION_PATHS` builds) this holds nothing and the operation reads
/// the same hint under its lock (``ConditionalOperation/readinessHint(counted:)``): how the value
/// is read differs, never the value.
///
/// Not a lock, so the library's one lock type stands. ThreadSanitizer sees it, unlike
/// `Synchronization.Mutex`: its operations are inlined into this module as atomic instructions,
/// which the sanitizer instruments (a release store and an acquire load order the accesses
/// around them; checked with a two-thread program, which it flags once both are relaxed).
struct LockFreeReadiness: ~Copyable, Sendable {
    #if !canImport(ObjectiveC) && !APPLE_FOUNDATION_PATHS
        private let hint = Atomic<UInt8>(ReadinessHint.ask.rawValue)
    #endif

    /// The hint as of the last locked section; `nil` where it is not kept (read it under the lock).
    @inline(__always)
    var current: ReadinessHint? {
        #if !canImport(ObjectiveC) && !APPLE_FOUNDATION_PATHS
            // Acquiring: a `finished` read sees everything the operation did before finishing.
            ReadinessHint(rawValue: hint.load(ordering: .acquiring))
        #else
            nil
        #endif
    }

    /// Called under the operation's lock, at the end of every locked section. `inout` only so
    /// that the machine is read in place: a copy of it costs a retain and release of each field.
    @inline(__always)
    func publish(from machine: inout Machine) {
        #if !canImport(ObjectiveC) && !APPLE_FOUNDATION_PATHS
            let value = machine.readinessHint.rawValue
            // Only the lock's holder writes: a relaxed read of its own last write suffices.
            if hint.load(ordering: .relaxed) != value { hint.store(value, ordering: .releasing) }
        #endif
    }

    /// Whether the lock-free hint is kept in this build.
    static var isKept: Bool {
        #if !canImport(ObjectiveC) && !APPLE_FOUNDATION_PATHS
            true
        #else
            false
        #endif
    }
}
