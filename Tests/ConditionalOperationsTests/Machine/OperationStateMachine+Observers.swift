@testable import ConditionalOperations
@testable import ConditionalOperationsMachines

extension OperationStateMachine where Host == OperationHost {
    /// `addObserver` as the operation calls it: with the observer as the operation keeps it
    /// (``KeptObserver``).
    mutating func addObserver(_ observer: some OperationObserver) -> AddObserverAction {
        addObserver(KeptObserver(observer))
    }
}
