/// Where an operation is in its life, as its public `ConditionalOperation.State` says: the
/// machine's projection of its phase (``OperationStateMachine/state``), case for case.
public enum OperationState: Int, Comparable, Sendable {
    case initialized
    case pending
    case evaluatingConditions
    case ready
    case executing
    case finishing
    case finished

    @inlinable public static func < (lhs: OperationState, rhs: OperationState) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
