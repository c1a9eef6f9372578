import Foundation

extension ConditionalOperation {
    /// S27: operations with the same key and class share one execution on a
    /// ``ConditionalOperationQueue``. `nil` (the default): the operation never joins another.
    ///
    /// Added to a `ConditionalOperationQueue` while an unfinished operation of the same class with
    /// the same key was added to that queue, the operation does not execute: it joins that one,
    /// and finishes right after it with its errors and, for a ``ResultOperation``, its output
    /// (``coalescedInto`` names it). Its own dependencies and conditions are not waited for or
    /// evaluated. Cancelling it cancels it alone; a joined operation that is cancelled or fails
    /// passes that on to its joiners. The key is free again once its operation finished. On a
    /// plain `OperationQueue`, or started by hand, the key does nothing.
    ///
    /// ```swift
    /// let fetch = FetchUserOperation(id: 42)
    /// fetch.coalescingKey = "user:42"
    /// let user = try await queue.run(fetch)  // one fetch for every caller asking at once
    /// ```
    ///
    /// Set it before adding the operation to a queue: setting it later stops the program (S13).
    public var coalescingKey: String? {
        get { CoalescingEntries.key(of: self) }
        set {
            markCoalescingKeySet()
            CoalescingEntries.setKey(newValue, of: self)
        }
    }

    /// S27: the operation this one joined instead of executing, because it had the same class and
    /// ``coalescingKey`` and was unfinished on the same queue when this one was added; `nil` if it
    /// joined none.
    public var coalescedInto: ConditionalOperation? {
        CoalescingEntries.joined(by: self)
    }
}
