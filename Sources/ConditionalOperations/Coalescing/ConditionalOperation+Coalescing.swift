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
            guard machine.withLock({ $0.setCoalescingKey() }) == .set else {
                Misuse.trap(
                    "\(diagnosticName): coalescingKey set after the operation was added to a queue or started "
                        + "(S13, S27: a queue reads the key as it adds the operation: set it before)")
            }
            CoalescingEntries.setKey(newValue, of: self)
        }
    }

    /// S27: the operation this one joined instead of executing, because it had the same class and
    /// ``coalescingKey`` and was unfinished on the same queue when this one was added; `nil` if it
    /// joined none.
    public var coalescedInto: ConditionalOperation? {
        CoalescingEntries.joined(by: self)
    }

    /// Added to `queue` with a coalescing key: joins the unfinished operation holding that key, or
    /// is added as any operation is (and holds the key until it finished). Returns whether it is
    /// ready now, as ``enqueue(on:dependenciesFinished:)`` does.
    func enqueueCoalescing(on queue: ConditionalOperationQueue, dependenciesFinished: Bool) -> Bool {
        if let key = CoalescingEntries.key(of: self), let joined = queue.coalescingHolder(key, for: self) {
            switch machine.withLock({ $0.join(on: queue) }) {
            case .joined(let deferred):
                for dependency in deferred { super.addDependency(dependency) }
                CoalescingEntries.setJoined(joined, by: self)
                // At once if it finished already: a joiner never waits for an end that came.
                joined.whenFinished { [weak self, unowned joined] in self?.joinedFinished(joined) }
                return false
            case .enqueue:
                break  // cancelled or started meanwhile: it runs (and ends) on its own
            }
        }
        return perform(
            machine.withLock {
                $0.enqueue(on: queue, dependenciesFinished: dependenciesFinished, keyLookedUp: true)
            },
            queue: queue, dependenciesFinished: dependenciesFinished)
    }

    /// The operation it joined finished: it becomes ready to finish as that one did.
    private func joinedFinished(_ joined: ConditionalOperation) {
        // Two trips, one lock each: both may be the same mutex (``LockTable``).
        let (errors, cancelled, skipped, output) = joined.machine.withLock {
            ($0.reportedErrors, $0.isCancelled, $0.isSkipped, joined.outputUnderLock())
        }
        let action = machine.withLock { machine in
            let action = machine.joinedFinished(errors: errors, cancelled: cancelled, skipped: skipped)
            if case .adopt = action { adoptOutputUnderLock(output) }
            return action
        }
        if case .adopt(let followup) = action { perform(followup) }
    }
}
