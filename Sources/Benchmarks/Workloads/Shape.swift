import Foundation

/// How the operations of a run depend on each other. Both sides of a comparison use the same
/// shape, so they differ only in the kind of operation.
enum Shape: Sendable {
    /// `n` operations without dependencies.
    case independent
    /// `n` operations, each depending on the one before.
    case chain
    /// `n` operations and one more that depends on all of them.
    case fanIn
    /// One operation and `n` more that depend on it.
    case fanOut

    /// The operations, wired, in the order they are added to the queue.
    func build(_ n: Int, _ make: () -> Foundation.Operation) -> [Foundation.Operation] {
        var operations: [Foundation.Operation] = []
        operations.reserveCapacity(n + 1)
        switch self {
        case .independent:
            for _ in 0..<n { operations.append(make()) }
        case .chain:
            for index in 0..<n {
                let operation = make()
                if index > 0 { operation.addDependency(operations[index - 1]) }
                operations.append(operation)
            }
        case .fanIn:
            for _ in 0..<n { operations.append(make()) }
            let sink = make()
            for source in operations { sink.addDependency(source) }
            operations.append(sink)
        case .fanOut:
            let source = make()
            operations.append(source)
            for _ in 0..<n {
                let operation = make()
                operation.addDependency(source)
                operations.append(operation)
            }
        }
        return operations
    }
}
