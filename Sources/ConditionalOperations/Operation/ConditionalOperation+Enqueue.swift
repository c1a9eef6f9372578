import Foundation

/// How a ``ConditionalOperationQueue`` admits its operations.
extension ConditionalOperation {
    /// Added to `queue`: ask for condition dependencies (S3) and add them to the same queue, then
    /// move towards `ready`. Returns whether it is ready now: the caller then hands it to
    /// Foundation itself, so that a batch is handed over at once. Once it becomes ready later, a
    /// followup hands it over through `handOver`.
    /// `dependenciesFinished`: the queue already knows every dependency finished.
    /// `recording`: the sink of the timeline recording it, attached in the same trip, first.
    func enqueue(
        on queue: ConditionalOperationQueue, dependenciesFinished: Bool,
        recordedBy recording: TimelineSink? = nil
    ) -> Bool {
        perform(
            machine.withLock {
                recording?.attach(to: &$0)
                return $0.enqueue(on: queue, dependenciesFinished: dependenciesFinished)
            },
            queue: queue, dependenciesFinished: dependenciesFinished)
    }

    /// Part of a dependency cycle: will finish with ``OperationError/dependencyCycle``, without
    /// executing. Mark every operation of the cycle before releasing any (``breakCycle()``).
    func markInCycle() {
        machine.withLock { $0.markInCycle(OperationError.dependencyCycle) }
    }

    /// Ready whatever its dependencies, so that it finishes once started.
    func breakCycle() {
        perform(machine.withLock { $0.breakCycle() })
    }
}
