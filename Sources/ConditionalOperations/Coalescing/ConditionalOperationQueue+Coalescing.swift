extension ConditionalOperationQueue {
    /// S27: the unfinished operation of this queue with `operation`'s class and `key`, for
    /// `operation` to join; `nil` if there is none, and `operation` holds the key from now on.
    func coalescingHolder(_ key: String, for operation: ConditionalOperation) -> ConditionalOperation? {
        let key = InFlightKeys.Key(key, of: operation)
        return storage.coalescingHolder(of: key, orClaimFor: operation)
    }
}
