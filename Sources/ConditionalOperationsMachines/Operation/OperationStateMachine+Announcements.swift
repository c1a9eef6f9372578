/// The events of a KVO `isReady` announcement (``ReadinessAnnouncements``): its begin, its end, and
/// a re-announcement asked for earlier.
extension OperationStateMachine {
    /// The announcement's `willChangeValue` was posted: `isReady` answers `true` from now on.
    @inlinable public mutating func announcementBegan() {
        announcements.begin()
    }

    /// Returns `true` when the announcement must be repeated.
    @inlinable public mutating func announcementEnded() -> Bool {
        announcements.end(waiting: isWaitingForStart)
    }

    /// A re-announcement asked for earlier is due; returns whether it is still needed: the
    /// operation waits to be started, and its look may not stay silent
    /// (``ReadinessAnnouncements/lookMayStaySilent``), or Foundation's count no longer holds (a
    /// dependency was removed unfinished since) or it awaits a dependency added once it was ready
    /// (one added and finished meanwhile announced it already).
    @inlinable public mutating func reannouncementDue() -> Bool {
        let maySkip = announcements.reannouncing()
        guard case .ready(_, let passed) = phase, !isStartRequested else { return false }
        return !(maySkip && passed.dependencyCount == .counted && !passed.awaitsLateDependency)
    }

    @inlinable var isWaitingForStart: Bool {
        guard case .ready = phase else { return false }
        return !isStartRequested
    }
}
