/// Work an operation starts when it executes and a cancel stops (an ``AsyncOperation``'s task, a
/// `DataTaskOperation`'s `URLSessionDataTask`), kept under the operation's own lock.
///
/// `package`: the networking module of this package (`DataTaskOperation`) keeps its task in one;
/// it is not API for the package's users.
package enum StartedWork<Handle> {
    case notStarted
    /// A cancel came before the work was stored: `execute()` cancels what it made.
    case cancelled
    case running(Handle)
    /// Let go of once the work ended.
    case ended

    /// Stores the work `execute()` made; returns whether a cancel came first, so that the caller
    /// cancels it, unlocked. Ended already (it finished before it was stored): nothing changes.
    package mutating func start(_ handle: Handle) -> Bool {
        switch self {
        case .notStarted:
            self = .running(handle)
            return false
        case .cancelled:
            return true
        case .running, .ended:
            return false
        }
    }

    /// A cancel: the running work, for the caller to cancel unlocked; before `execute()`, it
    /// remembers the cancel for ``start(_:)``.
    package mutating func cancel() -> Handle? {
        switch self {
        case .notStarted:
            self = .cancelled
            return nil
        case .running(let handle):
            return handle
        case .cancelled, .ended:
            return nil
        }
    }

    /// The work ended: it is taken out, to be dropped once unlocked.
    package mutating func end() -> StartedWork {
        var ended = StartedWork.ended
        swap(&ended, &self)
        return ended
    }
}
