import Foundation

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
        /// The joiner's own dependencies, added before it joined: a joiner waits for none of them
        /// and may finish before them, so they are never handed to Foundation, which would list
        /// the joiner in each by an unretained pointer and touch it as one finishes, deallocated
        /// or not (S33). Released with the entry, in the joiner's deinit.
        var heldDependencies: [Foundation.Operation] = []
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

    /// `operation` joined `joined`, holding `dependencies`, its own, which it does not wait for.
    static func setJoined(
        _ joined: ConditionalOperation, by operation: ConditionalOperation,
        holding dependencies: [Foundation.Operation]
    ) {
        entries.withLock { entries in
            entries[ObjectIdentifier(operation), default: Entry()].joined = joined
            entries[ObjectIdentifier(operation), default: Entry()].heldDependencies = dependencies
        }
    }

    /// The operation is being deallocated: its entry goes, and the dependencies it held are handed
    /// back for the deinit to release one after another. The rest of the entry goes here, unlocked:
    /// the operation it joined may go with it, and its own deinit removes its own entry.
    static func remove(_ operation: ObjectIdentifier) -> [Foundation.Operation] {
        var removed = entries.withLock { $0.removeValue(forKey: operation) }
        let held = removed?.heldDependencies ?? []
        removed?.heldDependencies = []
        withExtendedLifetime(removed) {}
        return held
    }
}
