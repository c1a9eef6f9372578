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

    /// A re-announcement asked for earlier is due; returns whether it is still needed.
    @inlinable public mutating func reannouncementDue() -> Bool {
        announcements.reannouncing()
        return isWaitingForStart
    }

    @inlinable var isWaitingForStart: Bool {
        guard case .ready = phase else { return false }
        return !isStartRequested
    }
}
