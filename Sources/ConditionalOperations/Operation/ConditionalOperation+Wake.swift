import Foundation

/// How an operation hears that its dependencies finished: from the library itself, on every
/// platform.
///
/// swift-corelibs-foundation reads a dependent's `isReady` as a dependency finishes, and that
/// query moves the operation on; Apple's `NSOperation` promises only a KVO notification, which
/// nobody observes for an operation held by a ``ConditionalOperationQueue`` (it enters no
/// Foundation queue before it is ready) or started by hand. So an admitted operation has its
/// unfinished dependencies tell it: a ``ConditionalOperation`` runs a waiter once it finished, a
/// plain operation is watched (``FinishWatcher``). Where Foundation's query came first, the wake
/// finds nothing left to do. Weak: a dependency never keeps its dependents alive.
extension ConditionalOperation {
    /// Wakes the operation once every one of `dependencies` that has not finished did: at once if
    /// none is left (they may have finished since the caller read them).
    func wakeWhenFinished(_ dependencies: [Foundation.Operation]) {
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

    /// The dependencies it was told of finished: the operation moves on unless it waits for
    /// others. Foundation may not have counted the last finish yet (a watcher fires while
    /// Foundation walks the finished operation's dependents, in no promised order), so where its
    /// count says no, the dependencies themselves are read.
    private func dependenciesFinishedWake() {
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
