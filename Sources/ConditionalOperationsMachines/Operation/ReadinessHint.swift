/// The `isReady` and `isFinished` answers that swift-corelibs-foundation may read without the
/// operation's lock (a plain queue asks every waiting operation on each pass, and
/// must pay no more for it than for its own waiting `BlockOperation`s).
///
/// A pure function of the machine, published at the end of every locked section
/// (``LockFreeReadiness``): it never runs ahead of the machine, and never returns to an earlier
/// value, so a reader that finds it still `dependencies` after reading Foundation's answer saw the
/// phase the locked query would have seen.
public enum ReadinessHint: UInt8, Sendable {
    /// Ask under the lock: the answer may change something (admission, an announcement).
    case ask
    /// Not admitted, with dependencies Foundation does not list it in yet: Foundation's own
    /// answer is not the operation's (``OperationStateMachine/deferDependency(_:)``); ask.
    case deferred
    /// Waiting for its dependencies, after a `false` was answered (``ReadinessAnnouncements``):
    /// Foundation's `false` is the answer; its `true` needs the locked query.
    case dependencies
    /// Waiting for its dependencies after one was removed unfinished: Foundation's count keeps
    /// it, so the dependencies themselves are read under the lock (``ConditionalOperation/dependenciesFinished``).
    case countDependencies
    /// Its conditions or categories will tell, after a `false` was answered: `false`.
    case waiting
    /// Ready, in no queue of the library's, not started, never announced, with no look on its way
    /// that a read must reach and no stale `false` left for a read to repair
    /// (``ReadinessAnnouncements/repairsOnQuery``): Foundation's `true` is
    /// the answer (its queue may have made it depend on a barrier block,
    /// ``OperationStateMachine/readsFoundationWhileReady``); its `false` needs the locked query.
    case foundation
    /// Started, and not finished: `isReady` is `true`.
    case started
    /// `isReady` and `isFinished` are `true`.
    case finished
}

extension OperationStateMachine {
    /// What ``ConditionalOperation/isReady`` may answer without the lock, now.
    ///
    /// Inlined into the end of every locked section, where it is published.
    @inline(__always)
    @inlinable public var readinessHint: ReadinessHint {
        // Being deallocated, its queries change nothing (``settledReadiness()``): not worth a hint.
        let answeredNotReady = announcements.hasAnsweredNotReady && !isDeallocating
        switch phase {
        case .initialized(_, _, let deferred) where !deferred.isEmpty:
            return .deferred
        case .initialized(_, let count, _), .pending(_, _, let count):
            if count == .stale { return .countDependencies }
            return answeredNotReady ? .dependencies : .ask
        case .evaluating, .acquiring, .joining:
            return answeredNotReady ? .waiting : .ask
        case .ready(_, let passed) where passed.awaitsLateDependency && passed.dependencyCount == .stale:
            // Its start reads the dependencies themselves.
            return .countDependencies
        case .ready(_, let passed)
        where readsFoundationWhileReady && !passed.awaitsLateDependency
            && !announcements.repairsOnQuery && !announcements.isUnannounced:
            // Its `true` changes nothing; asked often (by every reader of `isReady`).
            return .foundation
        case .ready:
            // A query while ready counts (``ReadinessAnnouncements/queriedWhileReady()``).
            return .ask
        case .executing, .draining, .finishing:
            return .started
        case .finished:
            return .finished
        }
    }
}
