import ConditionalOperationsMachines
import Foundation

/// How an operation hears that its dependencies finished: from the library itself, on every
/// platform.
///
/// swift-corelibs-foundation reads a dependent's `isReady` as a dependency finishes, and that
/// query moves the operation on; Apple's `NSOperation` promises only a KVO notification, which
/// nobody observes for an operation held by a ``ConditionalOperationQueue`` (it enters no
/// Foundation queue before it is ready) or started by hand. So an admitted operation has its
/// unfinished dependencies tell it: a lone ``ConditionalOperation`` dependency names it among its
/// waiters (``OperationStateMachine/Waiter/wake(_:)``, the chain's case, without an allocation of
/// its own); several, or a plain one (``FinishWatcher``), wake it through one closure holding it
/// weakly. Where Foundation's query came first, the wake finds nothing left to do.
extension ConditionalOperation {
    /// Wakes the operation once every one of `dependencies` that has not finished did: at once if
    /// none is left (they may have finished since the caller read them).
    func wakeWhenFinished(_ dependencies: [Foundation.Operation]) {
        if dependencies.count == 1, let conditional = dependencies[0] as? ConditionalOperation {
            return wake(whenFinished: conditional)
        }
        let unfinished = dependencies.filter { !$0.isFinished }
        guard !unfinished.isEmpty else { return dependenciesFinishedWake() }
        // One wake for them all, by the last to finish: one read of the dependencies, not one each.
        let remaining = unfinished.count == 1 ? nil : Locked(unfinished.count)
        let finished: @Sendable () -> Void = { [weak self] in
            let isLast =
                remaining?.withLock { count in
                    count -= 1
                    return count == 0
                } ?? true
            if isLast { self?.dependenciesFinishedWake() }
        }
        for dependency in unfinished {
            if let conditional = dependency as? ConditionalOperation {
                conditional.whenFinished(finished)
            } else {
                FinishWatcher(watching: dependency, onFinish: finished)
            }
        }
    }

    /// Wakes the operation once `dependency` finished, named among its waiters: at once if it did.
    private func wake(whenFinished dependency: ConditionalOperation) {
        let waiter = Machine.Waiter.wake(self)
        dependency.perform(dependency.machine.withLock { $0.addWaiter(waiter) }, waiter)
    }

    /// Cancelled, the operation waits for its dependencies no more: it takes back the wakes that
    /// name it, which would otherwise keep it alive as long as a dependency that never finishes.
    func takeBackWakes(from dependencies: [Foundation.Operation]) {
        for case let dependency as ConditionalOperation in dependencies where !dependency.isFinished {
            let removed = dependency.machine.withLock { $0.removeWakes(of: self) }
            withExtendedLifetime(removed) {}  // let go of here, unlocked
        }
    }

    /// The dependencies it was told of finished: the operation moves on unless it waits for
    /// others. Foundation may not have counted the last finish yet (a watcher fires while
    /// Foundation walks the finished operation's dependents, in no promised order), so where its
    /// count says no, the dependencies themselves are read.
    func dependenciesFinishedWake() {
        guard case .readDependencies(let stage) = machine.withLock({ $0.dependencyFinished() }) else {
            return
        }
        let finished = dependenciesFinished || dependencies.allSatisfy(\.isFinished)
        _ = settle(
            machine.withLock {
                $0.queryReadiness(dependenciesFinished: finished, stage: stage, context: .callback)
            }, context: .callback)
    }
}

extension Machine.Waiter {
    /// Runs it, outside every lock.
    func run() {
        switch self {
        case .run(let closure): closure()
        case .wake(let dependent): dependent.dependenciesFinishedWake()
        }
    }
}
