import ConditionalOperationsMachines

/// What the rest of the library may ask of an operation: the only way to its state machine from
/// outside the operation's own files.
extension ConditionalOperation {
    /// S7 in groups: `parent` runs this operation as its child; a category the parent holds is
    /// requested in its scope (`ExclusivityController.scoped(_:under:)`).
    func adoptParent(_ parent: ConditionalOperation) {
        machine.withLock { $0.adoptParent(parent) }
    }

    /// S11: this operation runs others and lets them finish before it finishes, also when it
    /// does not execute: it then calls `drain()` instead of finishing at once. Set once, in `init`.
    func drainBeforeFinishing() {
        machine.withLock { $0.drainBeforeFinishing() }
    }

    /// The categories the operation's conditions declare, and the parent running it (S7 in groups).
    var exclusivityScope: (categories: Set<String>, parent: ConditionalOperation?) {
        machine.withLock { ($0.categories, $0.exclusivityParent) }
    }

    /// Runs `waiter` once the operation finished and every `operationDidFinish` observer
    /// returned, outside every lock: at once if it already did.
    func whenFinished(_ waiter: @escaping @Sendable () -> Void) {
        perform(machine.withLock { $0.addWaiter(.run(waiter)) }, .run(waiter))
    }

    /// Adds an event sink (an `events` stream, a logger, a timeline); `.tellFinished` if the
    /// operation already finished: the caller sends the end itself.
    func addEventSink(_ sink: any EventSink) -> Machine.AddEventSinkAction {
        machine.withLock { $0.addEventSink(sink) }
    }

    /// What diagnostics read of the machine, at once.
    var diagnosticSnapshot: Machine.DiagnosticSnapshot {
        machine.withLock { $0.diagnosticSnapshot() }
    }

    /// The conditions not yet evaluated or still answering, and the categories declared.
    var configuredConditions: (conditions: [any OperationCondition], categories: Set<String>) {
        machine.withLock { ($0.conditions, $0.categories) }
    }
}
