/// S27: the unfinished operations of one ``ConditionalOperationQueue`` that others with the same
/// class and coalescing key join, kept by the queue's registry under its lock.
///
/// An operation holds its key from the moment it is added until it finished: the registry frees it
/// when it forgets the operation. One that finished within the `start()` a drainer gave it is
/// forgotten with the drainer's next trip, after its waiters (`value`, `queue.run`,
/// `untilFinished()`) were resumed: whoever saw it finish and adds an operation with its key
/// takes the key over (``holder(of:takingOverFrom:for:)``).
struct InFlightKeys {
    /// A key is per class: two operations of different classes never join, whatever their keys.
    struct Key: Hashable {
        let type: ObjectIdentifier
        let key: String

        init(_ key: String, of operation: ConditionalOperation) {
            type = ObjectIdentifier(Swift.type(of: operation))
            self.key = key
        }
    }

    private var holders: [Key: ConditionalOperation] = [:]
    /// The key each holder holds, to free it when the holder finished.
    private var held: [ObjectIdentifier: Key] = [:]

    /// Whether no operation holds a key: then forgetting an operation costs nothing more.
    var isEmpty: Bool { held.isEmpty }

    /// The operation holding `key`, to join unless it finished (the queue forgets a holder a moment
    /// after it finished); `nil` if there is none, and `operation` holds it from now on.
    mutating func holder(of key: Key, orClaimFor operation: ConditionalOperation) -> ConditionalOperation? {
        if let holder = holders[key] { return holder }
        holders[key] = operation
        held[ObjectIdentifier(operation)] = key
        return nil
    }

    /// The operation holding `key`, now that `finished`, which held it, finished (not forgotten
    /// yet); `nil` if there is none, and `operation` holds the key from now on.
    mutating func holder(
        of key: Key, takingOverFrom finished: ConditionalOperation, for operation: ConditionalOperation
    ) -> ConditionalOperation? {
        if let holder = holders[key], holder !== finished { return holder }
        held[ObjectIdentifier(finished)] = nil
        holders[key] = operation
        held[ObjectIdentifier(operation)] = key
        return nil
    }

    /// `operation` finished: the key it held is free.
    mutating func release(_ operation: ObjectIdentifier) {
        guard let key = held.removeValue(forKey: operation) else { return }
        holders[key] = nil
    }
}
