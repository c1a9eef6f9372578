import Foundation

/// The operation's storage for coalescing (S27): the trips through its lock that a key, a join and
/// the joined operation's end take. The key itself and the join are kept by `CoalescingEntries`.
extension ConditionalOperation {
    /// A coalescing key is about to be set: only before the operation is added or started.
    func markCoalescingKeySet() {
        switch machine.withLock({ $0.setCoalescingKey() }) {
        case .set:
            break
        case .misuse:
            Misuse.trap(
                "\(diagnosticName): coalescingKey set after the operation was added to a queue or started "
                    + "(S13, S27: a queue reads the key as it adds the operation: set it before)")
        }
    }

    /// Added to `queue` with a coalescing key: joins the unfinished operation holding that key, or
    /// is added as any operation is (and holds the key until it finished). Returns whether it is
    /// ready now, as ``enqueue(on:dependenciesFinished:)`` does.
    func enqueueCoalescing(on queue: ConditionalOperationQueue, dependenciesFinished: Bool) -> Bool {
        if let key = CoalescingEntries.key(of: self),
            let (joined, cycle) = queue.coalescingHolder(key, for: self)
        {
            // Read outside the lock: a subclass may override `name`.
            let name = joined.name
            switch machine.withLock({ $0.join(on: queue, joining: type(of: joined), named: name) }) {
            case .joined(let deferred):
                // Kept by the library, never listed in Foundation (S33): see `heldDependencies`.
                CoalescingEntries.setJoined(joined, by: self, holding: deferred)
                // At once if it finished already: a joiner never waits for an end that came.
                joined.whenFinished { [weak self, unowned joined] in self?.joinedFinished(joined) }
                // The one it joined waits for it: a cycle, which no finish would ever end (S33, S9).
                if !cycle.isEmpty { queue.breakCycle(cycle) }
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
        // Cancelled through the one it joined: told as a cancel of its own is (``cancel()``).
        let announces = cancelled && ObservedProperty.isCancelled.isPosted && !isCancelled
        if announces { willChange(.isCancelled) }
        let action = machine.withLock { machine in
            let action = machine.joinedFinished(errors: errors, cancelled: cancelled, skipped: skipped)
            if case .adopt = action { adoptOutputUnderLock(output) }
            return action
        }
        if announces { didChange(.isCancelled) }
        if case .adopt(let followup) = action { perform(followup) }
    }
}
