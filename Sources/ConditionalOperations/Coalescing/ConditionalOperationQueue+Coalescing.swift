import Foundation

extension ConditionalOperationQueue {
    /// S27: the unfinished operation of this queue with `operation`'s class and `key`, for
    /// `operation` to join, with the operations of the dependency cycle the join would close
    /// (S33, empty if none); `nil` if there is none, and `operation` holds the key from now on.
    func coalescingHolder(_ key: String, for operation: ConditionalOperation)
        -> (holder: ConditionalOperation, cycle: [Foundation.Operation])?
    {
        let key = InFlightKeys.Key(key, of: operation)
        return storage.coalescingHolder(of: key, orClaimFor: operation)
    }
}
