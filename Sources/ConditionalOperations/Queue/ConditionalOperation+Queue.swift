import Foundation

/// How a ``ConditionalOperationQueue`` admits its operations.
extension ConditionalOperation {
    /// Added to `queue`: ask for condition dependencies (S3) and add them to the same queue, then
    /// move towards `ready`; the queue gets the operation back through `handOver` once it is.
    func enqueue(on queue: ConditionalOperationQueue) {
        switch machine.withLock({ $0.enqueue(on: queue) }) {
        case .misuse:
            preconditionFailure(
                "\(diagnosticName): added to a queue while already in one or started "
                    + "(S13: an operation is added to one queue, once)")
        case .held(let conditions):
            for dependency in conditions.compactMap({ $0.dependency(for: self) }) {
                addDependency(dependency)
                queue.addOperation(dependency)
            }
            _ = queryReadiness(context: .callback)  // once ready, the followup hands it over
        case .ready:
            queue.handOver(self)
        }
    }

    /// Part of a dependency cycle: finishes with ``OperationError/dependencyCycle`` once started.
    func abandonForCycle() {
        perform(machine.withLock { $0.abandonForCycle(OperationError.dependencyCycle) })
    }
}
