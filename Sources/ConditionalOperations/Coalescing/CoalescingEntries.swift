/// S27: the coalescing key of each operation that was given one, and the operation it joined.
///
/// Kept beside the operations, not in them: an operation without a key pays neither memory nor a
/// lock trip for coalescing (its machine records in one byte it had none, ``OperationStateMachine/hasCoalescingEntry``).
/// An entry lives as long as its operation: its deinit removes it.
enum CoalescingEntries {
    struct Entry {
        var key: String?
        /// Kept once it finished, as Foundation keeps an operation's dependencies: ``ConditionalOperation/coalescedInto`` names it.
        var joined: ConditionalOperation?
    }

    // Behind the library's one lock type; touched only by operations that were given a key.
    private static let entries = Locked([ObjectIdentifier: Entry]())

    static func key(of operation: ConditionalOperation) -> String? {
        entries.withLock { $0[ObjectIdentifier(operation)]?.key }
    }

    static func joined(by operation: ConditionalOperation) -> ConditionalOperation? {
        entries.withLock { $0[ObjectIdentifier(operation)]?.joined }
    }

    static func setKey(_ key: String?, of operation: ConditionalOperation) {
        entries.withLock { $0[ObjectIdentifier(operation), default: Entry()].key = key }
    }

    static func setJoined(_ joined: ConditionalOperation, by operation: ConditionalOperation) {
        entries.withLock { $0[ObjectIdentifier(operation), default: Entry()].joined = joined }
    }

    /// The operation is being deallocated. The entry goes here, unlocked: the operation it joined
    /// may go with it, and its own deinit removes its own entry.
    static func remove(_ operation: ObjectIdentifier) {
        let removed = entries.withLock { $0.removeValue(forKey: operation) }
        withExtendedLifetime(removed) {}
    }
}
