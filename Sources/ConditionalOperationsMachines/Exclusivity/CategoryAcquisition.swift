/// What a request for exclusivity categories did as it was made: the operation's machine reads it
/// as the request returns (``OperationStateMachine/endInlineAcquisition(_:context:)``).
public enum CategoryAcquisition: Equatable {
    case granted
    /// The grant comes once they are all held; `ahead`: the most requests ahead of it in one of
    /// its lines (holders included).
    case waits(ahead: Int)

    @inlinable public var isGranted: Bool { self == .granted }
}
