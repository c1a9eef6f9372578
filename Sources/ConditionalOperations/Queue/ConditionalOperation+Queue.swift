import Foundation

/// How a ``ConditionalOperationQueue`` admits its operations.
extension ConditionalOperation {
    /// Added to `queue`: ask for condition dependencies (S3) and add them to the same queue, then
    /// move towards `ready`; the queue gets the operation back through `handOver` once it is.
    /// Returns whether it was handed over already.
    /// `dependenciesFinished`: the queue already knows every dependency finished.
    @discardableResult
    func enqueue(on queue: ConditionalOperationQueue, dependenciesFinished: Bool = false) -> Bool {
        switch machine.withLock({ $0.enqueue(on: queue) }) {
        case .misuse:
            preconditionFailure(
                "\(diagnosticName): added to a queue while already in one or started "
                    + "(S13: an operation is added to one queue, once)")
        case .held(let conditions):
            // Once ready, the followup hands it over.
            guard !conditions.isEmpty else {
                guard dependenciesFinished else { return queryReadiness(context: .callback) }
                let readiness = machine.withLock {
                    $0.queryReadiness(dependenciesFinished: true, context: .callback)
                }
                return settle(readiness, context: .callback)
            }
            for dependency in conditions.compactMap({ $0.dependency(for: self) }) {
                addDependency(dependency)
                queue.addOperation(dependency)
            }
            return settle(machine.withLock { $0.conditionDependenciesAdded() }, context: .callback)
        case .ready:
            queue.handOver(self)
            return true
        }
    }

    /// Part of a dependency cycle: will finish with ``OperationError/dependencyCycle``, without
    /// executing. Mark every operation of the cycle before releasing any (``releaseFromCycle()``).
    func markInCycle() {
        machine.withLock { $0.markInCycle(OperationError.dependencyCycle) }
    }

    /// Ready whatever its dependencies, so that it finishes once started.
    func releaseFromCycle() {
        perform(machine.withLock { $0.releaseFromCycle() })
    }
}
