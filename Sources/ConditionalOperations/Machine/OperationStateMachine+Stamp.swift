/// The time and the thread a phase records, for diagnostics and for `produceOperation` (S10). The
/// machine reads no clock and no thread: an event entering such a phase asks for a stamp, and the
/// operation's storage passes them in before unlocking, in the same trip (`MachineLock`).
extension OperationStateMachine {
    enum Stamp: UInt8 {
        case none
        /// When the phase began.
        case time
        /// When `execute()` is called and the thread that calls it: the caller's.
        case timeAndThread
    }

    /// Records `now`, and `thread` where asked, in the phase the event left the operation in.
    mutating func stamp(thread: ThreadIdentity, now: Uptime) {
        let recordsThread = awaitedStamp == .timeAndThread
        awaitedStamp = .none
        switch phase {
        case .evaluating(var evaluation, let requests):
            evaluation.began = now
            enter(.evaluating(evaluation, requests))
        case .acquiring(var acquisition, let requests):
            acquisition.began = now
            enter(.acquiring(acquisition, requests))
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
