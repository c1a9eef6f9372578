/// The time and the thread a phase records, for diagnostics and for `produceOperation` (S10). The
/// machine reads no clock and no thread: an event entering such a phase asks for a stamp, and the
/// operation's storage passes them in before unlocking, in the same trip (`MachineLock`).
extension OperationStateMachine {
    public enum Stamp: UInt8, Sendable {
        case none
        /// When the phase began.
        case time
        /// When `execute()` is called and the thread that calls it: the caller's.
        case timeAndThread
    }

    /// The stamp the last event asked for, until the storage passed it in; its methods alone
    /// write it.
    public struct StampRequest: Sendable {
        @usableFromInline var awaited: Stamp

        @inlinable init() {
            self.awaited = Stamp.none
        }

        /// The event entered a phase that records `stamp`.
        @inlinable mutating func ask(_ stamp: Stamp) {
            awaited = stamp
        }

        /// The stamp asked for, which is then passed in: none is left.
        @inlinable mutating func take() -> Stamp {
            defer { awaited = .none }
            return awaited
        }
    }

    /// What the phase entered in this event records that the machine does not read itself: the
    /// storage passes it in before unlocking (``stamp(thread:now:)``).
    @inlinable public var awaitedStamp: Stamp { stampRequest.awaited }

    /// Records `now`, and `thread` where asked, in the phase the event left the operation in.
    @inlinable public mutating func stamp(thread: ThreadIdentity, now: Uptime) {
        let recordsThread = stampRequest.take() == .timeAndThread
        switch phase {
        case .evaluating(var evaluation, let passed):
            evaluation.began = now
            enter(.evaluating(evaluation, passed))
        case .acquiring(var acquisition, let passed):
            acquisition.began = now
            enter(.acquiring(acquisition, passed))
        case .executing(.called(let called, _)):
            enter(.executing(.called(thread: recordsThread ? thread : called, since: now)))
        case .initialized, .pending, .joining, .ready, .executing(.due), .executing(.draining), .draining,
            .finishing,
            .finished:
            // The event moved on from the phase that asked: nothing to record.
            break
        }
    }
}
