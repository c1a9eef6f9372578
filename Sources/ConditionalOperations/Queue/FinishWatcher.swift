import Foundation

/// Tells the library when a plain `Foundation.Operation` finished.
///
/// A watcher is a dependent of the operation, never enqueued: swift-corelibs-foundation has a
/// finishing operation read each dependent's `isReady` (the getter, so this override) once its
/// last dependency finished, and that answer fires it. Apple's `NSOperation` promises only KVO, so
/// there the watcher also observes the operation's `isFinished` key (the one Foundation and the
/// operations post; Swift's `\.isFinished` key path is named `finished`), and whichever tells
/// first fires it. Alone, that observation would not do: one registered between an operation's
/// `willChangeValue` and `didChangeValue` misses the change. Everything but the few lines that
/// register and receive the observation is the same on every platform, and tested on Linux,
/// where ``observedFinish(of:)`` is called as the observation would call it.
///
/// It asks itself once more after adding the dependency, for an operation that finished
/// already. It keeps itself alive until it fired and Foundation no longer lists it, so that
/// Foundation's unretained pointer to it can never dangle: fired by its `isReady` getter, no
/// unfinished dependency lists it any more; fired by the observation, Foundation may be walking
/// the operation's dependents right then, so it takes its dependency out afterwards, on another
/// thread, and only then lets go of itself.
final class FinishWatcher: Foundation.Operation, @unchecked Sendable {  // mutable state: `state`'s lock
    private struct State {
        var onFinish: (@Sendable () -> Void)?
        /// The operation it observes by KVO, until it fired (Apple's Foundation only).
        var observed: Foundation.Operation?
    }

    private let state: Locked<State>
    private let selfReference = Locked<FinishWatcher?>(nil)

    /// Calls `onFinish` once, when `operation` finished (at once if it already did).
    @discardableResult
    init(watching operation: Foundation.Operation, onFinish: @escaping @Sendable () -> Void) {
        state = Locked(State(onFinish: onFinish))
        super.init()
        selfReference.withLock { $0 = self }
        if observe(operation) {
            let firedMeanwhile = state.withLock { state in
                if state.onFinish != nil { state.observed = operation }
                return state.onFinish == nil
            }
            if firedMeanwhile { stopObserving(operation) }
        }
        addDependency(operation)
        _ = isReady  // whether or not `addDependency` asked: an operation finished already fires now
    }

    override var isReady: Bool {
        let ready = super.isReady
        // Foundation's own count says no unfinished dependency lists the watcher any more.
        if ready { fire(leaving: nil) }
        return ready
    }

    /// The observation of `operation`'s `isFinished` was told of a change.
    func observedFinish(of operation: Foundation.Operation) {
        guard operation.isFinished else { return }
        fire(leaving: operation)
    }

    /// Calls `onFinish` (once), then lets go of the watcher: at once, or once it no longer depends
    /// on `dependency`, taken out on another thread.
    private func fire(leaving dependency: Foundation.Operation?) {
        let taken = state.withLock { state in
            defer { state = State() }
            return state
        }
        guard let onFinish = taken.onFinish else { return }
        onFinish()
        if let observed = taken.observed { stopObserving(observed) }
        guard let dependency else { return selfReference.withLock { $0 = nil } }
        DispatchQueue.global().async { [self] in
            removeDependency(dependency)
            selfReference.withLock { $0 = nil }
        }
    }

    // MARK: Key-value observation: what Foundation itself lacks on Linux

    #if canImport(ObjectiveC)
        private static let finishedKey = "isFinished"

        /// Starts observing `operation`'s `isFinished`; returns whether it does.
        private func observe(_ operation: Foundation.Operation) -> Bool {
            operation.addObserver(self, forKeyPath: Self.finishedKey, options: [], context: nil)
            return true
        }

        private func stopObserving(_ operation: Foundation.Operation) {
            operation.removeObserver(self, forKeyPath: Self.finishedKey)
        }

        override func observeValue(
            forKeyPath keyPath: String?, of object: Any?, change: [NSKeyValueChangeKey: Any]?,
            context: UnsafeMutableRawPointer?
        ) {
            guard keyPath == Self.finishedKey, let operation = object as? Foundation.Operation else { return }
            observedFinish(of: operation)
        }
    #else
        /// swift-corelibs-foundation has no key-value observation: its getter call alone fires.
        private func observe(_ operation: Foundation.Operation) -> Bool { false }

        private func stopObserving(_ operation: Foundation.Operation) {}
    #endif
}
