import Foundation

/// The errors the library itself produces, as they reach ``ConditionalOperation/errors`` and observers.
public enum OperationError: Error, Sendable {
    /// A condition failed without an error of its own: a ``BlockCondition`` returning `false`,
    /// or a ``NegatedCondition`` whose base condition was satisfied.
    case conditionFailed(name: String)
    /// A ``TimeoutObserver`` cancelled the operation after this many seconds.
    case timedOut(TimeInterval)
    /// This many dependencies finished with errors (``NoFailedDependencies``).
    case dependenciesFailed(count: Int)
    /// This many dependencies were cancelled (``NoFailedDependencies``).
    case dependenciesCancelled(count: Int)
    /// The operation is part of a dependency cycle and could never start.
    case dependencyCycle
}

extension OperationError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .conditionFailed(let name): "condition '\(name)' failed"
        case .timedOut(let seconds): "timed out after \(seconds) s"
        case .dependenciesFailed(let count): "\(count) \(count == 1 ? "dependency" : "dependencies") failed"
        case .dependenciesCancelled(let count):
            "\(count) \(count == 1 ? "dependency was" : "dependencies were") cancelled"
        case .dependencyCycle: "the operation is part of a dependency cycle"
        }
    }
}

extension OperationError: Equatable {}
