import ConditionalOperationsMachines
import Foundation

extension ConditionalOperation {
    /// Why the operation is where it is now: what it waits for (dependencies, conditions,
    /// categories, its queue) or how long it has been executing. Cheap enough to ask at any time.
    ///
    /// ```swift
    /// if case .conditions(let unanswered, let waited) = operation.diagnosis.reason, waited > 30 {
    ///     logger.warning("\(unanswered) never answered")
    /// }
    /// ```
    public var diagnosis: OperationDiagnosis { diagnosis(known: nil, cycles: DependencyCycles()) }

    /// ``diagnosis``, with a queue's status the caller read already: a whole queue's diagnoses
    /// read it once, not once per ready operation (it lists the queue's operations); and one
    /// search for dependency cycles for them all.
    func diagnosis(known: OperationDiagnosis.KnownQueueStatus?, cycles: DependencyCycles)
        -> OperationDiagnosis
    {
        let snapshot = diagnosticSnapshot
        return OperationDiagnosis(
            name: diagnosticName, state: State(snapshot.state), isCancelled: snapshot.isCancelled,
            reason: reason(for: snapshot, known: known, cycles: cycles))
    }

    /// Everything but the machine's own data is read here, unlocked: names are user code.
    private func reason(
        for snapshot: Machine.DiagnosticSnapshot, known: OperationDiagnosis.KnownQueueStatus?,
        cycles: DependencyCycles
    ) -> OperationDiagnosis.Reason {
        switch snapshot.waiting {
        case .admission:
            // A group's child reaches a queue only once the group executes (S31).
            if let group = snapshot.parent as? GroupOperation, !group.hasStarted {
                return .group(group.diagnosticName)
            }
            // A plain queue admits an operation only once its dependencies finished.
            let unfinished = unfinishedDependencies
            return unfinished.isEmpty ? .notEnqueued : waitingReason(unfinished, cycles: cycles)
        case .dependencies:
            let unfinished = unfinishedDependencies
            // Ready, waiting for a dependency added since (S9) that has just finished: its start.
            if unfinished.isEmpty, snapshot.state == .ready {
                return startReason(snapshot.owner, known: known)
            }
            return waitingReason(unfinished, cycles: cycles)
        case .conditions(let conditions, let answered, let since):
            let unanswered = conditions.indices.filter { !answered.contains($0) }.map { conditions[$0].name }
            return .conditions(unanswered: unanswered, waited: since.seconds())
        case .categories(let since):
            return .categories(
                ExclusivityController.shared.waits(for: ObjectIdentifier(self)), waited: since.seconds())
        case .joined:
            // S27: the operation it joined is what it waits for, as for a dependency.
            let joined = coalescedInto.map {
                [OperationDiagnosis.Dependency(name: $0.diagnosticName, state: $0.diagnosticState)]
            }
            return .dependencies(joined ?? [])
        case .start:
            return startReason(snapshot.owner, known: known)
        case .execution(let since):
            // A composite waits for what it runs (S32).
            if let composite = self as? any AttemptRunning, let reason = composite.attemptReason {
                return reason
            }
            return .executing(seconds: since?.seconds())
        case .draining:
            return .children
        case .finishing:
            return .finishing
        case .finished(let ending):
            switch ending {
            case .skipped: return .skipped
            case .cancelled, .cancelledAsItStarted: return .cancelled(errors: snapshot.errors)
            case .failed where snapshot.errors.contains(where: OperationError.isDependencyCycle):
                // S9, S33: the cycle its queue broke, found again among the operations it ended.
                return brokenCycle().map { .cycleBroken($0) } ?? .finished(errors: snapshot.errors)
            case .executed, .finishedAsItStarted, .failed, .joined: return .finished(errors: snapshot.errors)
            }
        }
    }
}

extension ConditionalOperation {
    /// Ready: waiting for `owner` to start it, as far as the library can know.
    private func startReason(_ owner: ConditionalOperationQueue?, known: OperationDiagnosis.KnownQueueStatus?)
        -> OperationDiagnosis.Reason
    {
        guard let owner else { return .start(.unknown) }
        if let known, known.queue === owner { return .start(known.status) }
        return .start(OperationDiagnosis.QueueStatus(of: owner))
    }
}

extension Foundation.Operation {
    /// Waiting for `unfinished`, or part of a cycle that never ends (S9).
    func waitingReason(_ unfinished: [OperationDiagnosis.Dependency], cycles: DependencyCycles)
        -> OperationDiagnosis.Reason
    {
        guard !unfinished.isEmpty, let cycle = cycles.cycle(through: self) else {
            return .dependencies(unfinished)
        }
        return .dependencyCycle(cycle.map(\.diagnosticName))
    }

    /// The type and name of the operation, for messages: `FetchUsers 'users'`.
    var diagnosticName: String { Self.diagnosticName(type: Swift.type(of: self), name: name) }

    /// How messages name an operation of `type` called `name`: the type, then the name in quotes.
    static func diagnosticName(type: Foundation.Operation.Type, name: String?) -> String {
        let type = String(describing: type)
        guard let name, !name.isEmpty else { return type }
        return "\(type) '\(name)'"
    }

    /// The dependencies not finished yet, with their states.
    var unfinishedDependencies: [OperationDiagnosis.Dependency] {
        dependencies.filter { !$0.isFinished }.map {
            OperationDiagnosis.Dependency(name: $0.diagnosticName, state: $0.diagnosticState)
        }
    }

    /// A ``ConditionalOperation``'s state, or the nearest one for any other operation.
    var diagnosticState: ConditionalOperation.State {
        if let operation = self as? ConditionalOperation { return operation.state }
        if isFinished { return .finished }
        if isExecuting { return .executing }
        return isReady ? .ready : .pending
    }
}

extension OperationDiagnosis {
    /// The diagnosis of any operation: a ``ConditionalOperation``'s own, or what Foundation's
    /// `Operation` tells of itself. `known`, if given, is the queue holding it, with its status;
    /// `cycles` the search for dependency cycles the caller's diagnoses share.
    init(of operation: Foundation.Operation, known: KnownQueueStatus?, cycles: DependencyCycles) {
        if let operation = operation as? ConditionalOperation {
            self = operation.diagnosis(known: known, cycles: cycles)
            return
        }
        let state = operation.diagnosticState
        let reason: Reason
        switch state {
        case .finished, .finishing: reason = .finished(errors: [])
        case .executing: reason = .executing(seconds: nil)
        case .ready, .evaluatingConditions: reason = .start(known?.status ?? .unknown)
        case .initialized, .pending:
            reason = operation.waitingReason(operation.unfinishedDependencies, cycles: cycles)
        }
        self.init(
            name: operation.diagnosticName, state: state, isCancelled: operation.isCancelled, reason: reason)
    }
}

extension OperationDiagnosis {
    /// A queue and its status, read once for the diagnoses of many of its operations.
    struct KnownQueueStatus {
        let queue: OperationQueue
        let status: QueueStatus

        init(_ queue: OperationQueue) {
            self.queue = queue
            status = QueueStatus(of: queue)
        }
    }
}

extension OperationDiagnosis.QueueStatus {
    /// What keeps `queue` from starting a ready operation now.
    init(of queue: OperationQueue) {
        if queue.isSuspended {
            self = .suspended
            return
        }
        let limit = queue.maxConcurrentOperationCount
        let operations = (queue as? ConditionalOperationQueue)?.unfinishedOperations ?? queue.operations
        if limit != OperationQueue.defaultMaxConcurrentOperationCount,
            operations.count(where: { $0.isExecuting }) >= limit
        {
            self = .atConcurrencyLimit(limit)
        } else {
            self = .starting
        }
    }
}

extension ConditionalOperation {
    /// The names of the conditions not yet evaluated or still answering (they are let go of once
    /// every one answered, S2) and the exclusivity categories it declares, for graphs.
    var conditionSummary: (conditions: [String], categories: Set<String>) {
        let (conditions, categories) = configuredConditions
        // Names are user code: unlocked. A category shows the name it was given (S26).
        return (conditions.map(\.name), Set(categories.map(ExclusivityController.unscopedName)))
    }
}

extension ConditionalOperation {
    /// The dependency cycle this operation ended in (S9): the names of the operations met when
    /// following its dependencies, and the operation each joined (S33), back to it, among those
    /// that its queue ended with it (``OperationError/dependencyCycle``, or cancelled for a plain
    /// one), itself first; `nil` if none leads back.
    func brokenCycle() -> [String]? {
        var cameFrom: [ObjectIdentifier: Foundation.Operation] = [:]
        var frontier: [Foundation.Operation] = [self]
        while !frontier.isEmpty {
            var next: [Foundation.Operation] = []
            for node in frontier {
                for successor in Self.edges(of: node) where Self.endedInACycle(successor) {
                    if successor === self {
                        var path = [node]
                        while let previous = cameFrom[ObjectIdentifier(path[path.count - 1])] {
                            path.append(previous)
                        }
                        return ([self] + path.reversed().filter { $0 !== self }).map(\.diagnosticName)
                    }
                    guard cameFrom[ObjectIdentifier(successor)] == nil else { continue }
                    cameFrom[ObjectIdentifier(successor)] = node
                    next.append(successor)
                }
            }
            frontier = next
        }
        return nil
    }

    private static func edges(of operation: Foundation.Operation) -> [Foundation.Operation] {
        let joined = (operation as? ConditionalOperation)?.coalescedInto
        return operation.dependencies + (joined.map { [$0] } ?? [])
    }

    private static func endedInACycle(_ operation: Foundation.Operation) -> Bool {
        guard let conditional = operation as? ConditionalOperation else { return operation.isCancelled }
        return conditional.errors.contains(where: OperationError.isDependencyCycle)
    }
}
