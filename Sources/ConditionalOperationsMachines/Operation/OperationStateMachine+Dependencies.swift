import Foundation

/// The operation's own dependencies, where Foundation lists a dependent by an unretained pointer.
extension OperationStateMachine {
    /// `dependency` was added to an operation; returns `false` when Foundation is to list it at
    /// once: the operation was admitted (by a queue, `start()` or an `isReady` query).
    ///
    /// swift-corelibs-foundation lists an operation, by an unretained pointer, in each dependency
    /// it waits for, and a dependency that finishes retains the operations it finds there to ask
    /// them `isReady`. An operation released while one of its dependencies finishes on another
    /// thread could be found there after its deinit began, which no deinit can undo ("deallocated
    /// with non-zero retain count", or a freed operation read). Held back until admission, the
    /// dependencies of an operation its caller drops before then never list it; once admitted,
    /// its queue or its starter holds it. One code path on every platform: an operation with
    /// deferred dependencies answers as one listed in them would.
    ///
    /// Added twice, it is kept twice here, and once by Foundation: its own search makes a fan-in
    /// cost quadratic time already, and is not repeated.
    @inlinable public mutating func deferDependency(_ dependency: Foundation.Operation) -> Bool {
        guard case .initialized(let asked, let count, var deferred) = phase else { return false }
        enter(.initialized(asked, count, []))  // the array is appended to in place, not copied
        deferred.append(dependency)
        enter(.initialized(asked, count, deferred))
        return true
    }

    /// Removes `dependency` if it was deferred; returns `false` when Foundation lists it.
    @inlinable public mutating func removeDeferredDependency(_ dependency: Foundation.Operation) -> Bool {
        guard case .initialized(let asked, let count, var deferred) = phase,
            deferred.contains(where: { $0 === dependency })
        else { return false }
        enter(.initialized(asked, count, []))
        deferred.removeAll { $0 === dependency }
        enter(.initialized(asked, count, deferred))
        return true
    }

    /// The dependencies Foundation does not list the operation in yet, each once.
    @inlinable public var deferredDependencies: [Foundation.Operation] {
        guard case .initialized(_, _, let deferred) = phase, !deferred.isEmpty else { return [] }
        // A chain's one dependency is listed without a set made for it, under the lock.
        if deferred.count == 1 { return deferred }
        var seen = Set<ObjectIdentifier>()
        return deferred.filter { seen.insert(ObjectIdentifier($0)).inserted }
    }

    /// Takes the deferred dependencies out, for a caller that adds them to Foundation itself: a
    /// cancel (Foundation lists no dependent once cancelled) or the deinit.
    @inlinable public mutating func takeDeferredDependencies() -> [Foundation.Operation] {
        guard case .initialized(let asked, let count, let deferred) = phase, !deferred.isEmpty else {
            return []
        }
        enter(.initialized(asked, count, []))
        return deferred
    }

    /// Dependencies it waited for finished, told by the library itself
    /// (``ConditionalOperation/wakeWhenFinished(_:)``) rather than by Foundation reading `isReady`,
    /// which Apple's Foundation does not promise for an operation in none of its queues. Returns
    /// the step that reads whether every dependency finished, or `nil` when it waits for none.
    @inlinable public mutating func dependencyFinished() -> ReadinessAction? {
        switch phase {
        case .initialized(_, _, let deferred) where !deferred.isEmpty:
            // Not admitted, its dependencies held back: its admission reads them.
            return nil
        case .initialized:
            // Listed by Foundation and asked by a plain queue: the first query that finds every
            // dependency finished admits it, as this one may.
            return .readDependencies(.unasked)
        case .pending(let stage, _, _):
            // Waiting for its dependencies: read under this stage, as a query would.
            return .readDependencies(stage)
        case .ready(_, let passed) where passed.awaitsLateDependency && !isCancelled:
            // A dependency added since it was ready (S9): its owner takes it back once all finished.
            return .readDependencies(.asked)
        case .evaluating, .acquiring, .joining, .ready, .executing, .draining, .finishing, .finished:
            // Past its dependencies (or waiting for none, cancelled): nothing to read.
            return nil
        }
    }

    /// The dependencies handed out by ``ReadinessAction/registerDependencies(_:)`` were added to
    /// Foundation: its answer is whole again.
    @inlinable public mutating func dependenciesRegistered(context: Context) -> ReadinessAction {
        switch phase {
        case .pending(.registering, let asked, let count) where context.isAdmission && !conditions.isEmpty:
            // Added to a `ConditionalOperationQueue`: their dependencies are asked for now (S3).
            enter(.pending(.asking, asked, count))
            return .askConditionDependencies(conditions)
        case .pending(.registering, let asked, let count) where owner == nil && !isStartRequested:
            // Asked by a plain queue (or any caller): as if Foundation had listed it all along, it is
            // admitted by the first query that finds every dependency finished.
            enter(.initialized(asked, count, []))
            return .readDependencies(.unasked)
        case .pending(.registering, let asked, let count):
            enter(.pending(.unasked, asked, count))
            return .readDependencies(.unasked)
        case .ready, .executing, .draining, .finishing, .finished:
            // Cancelled meanwhile.
            return .answer(true, .nothing)
        case .initialized, .pending, .evaluating, .acquiring, .joining:
            fatalError("dependenciesRegistered in phase \(phase): nothing was being added")
        }
    }
}
