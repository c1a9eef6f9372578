import Foundation

extension ConditionalOperationQueue {
    /// S27: the unfinished operation of this queue with `operation`'s class and `key`, for
    /// `operation` to join, with the operations of the dependency cycle the join would close
    /// (S33, empty if none); `nil` if there is none, and `operation` holds the key from now on.
    func coalescingHolder(_ key: String, for operation: ConditionalOperation)
        -> (holder: ConditionalOperation, cycle: [Foundation.Operation])?
    {
        let key = InFlightKeys.Key(key, of: operation)
        var found = storage.coalescingHolder(of: key, for: operation, takingOverFrom: nil)
        // Finished within the `start()` a drainer gave it, a holder is forgotten with the
        // drainer's next trip, after its waiters were resumed: whoever saw it finish finds the
        // key free. Read outside the queue's lock.
        while let holder = found?.holder, holder.isFinished {
            found = storage.coalescingHolder(of: key, for: operation, takingOverFrom: holder)
        }
        guard let (holder, cycle) = found else { return nil }
        // The same goes for a cycle through an operation that finished: it is none.
        return (
            holder,
            Self.unfinishedCycle(cycle) { storage.cycle(joining: operation, to: holder, detaching: $0) }
        )
    }
}
