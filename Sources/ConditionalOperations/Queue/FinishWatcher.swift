import Foundation

/// Tells a ``ConditionalOperationQueue`` when a plain `Foundation.Operation` it holds finished.
///
/// A watcher is a dependent of the operation, never enqueued: Foundation asks a dependent
/// whether it is ready once its dependencies finished, and this one's answer fires it. It is the
/// same mechanism on every platform. swift-corelibs-foundation's `Operation`, rewritten in 2019
/// to follow the Objective-C implementation, has a finishing operation walk its dependents and
/// read each one's `isReady` (the getter, so this override) once its last dependency finished;
/// Apple's `NSOperation` observes each dependency's `isFinished` and re-reads the dependent's
/// readiness the same way. Whether Apple's re-reading calls the getter of a dependent that is in no
/// queue is not documented, so there (where Foundation has KVO) the watcher also observes the
/// `isFinished` key, the one Foundation and the operations post (Swift's `\.isFinished` key path
/// is named `finished`): whichever tells first fires it. Alone, that observation would not do: one
/// registered between an operation's `willChangeValue` and `didChangeValue` misses the change.
///
/// It asks itself once more after adding the dependency, for an operation that finished
/// already. It keeps itself alive until it fired, so Foundation's unretained pointer to it can
/// never dangle: it fires only once Foundation's own readiness is `true`, when no unfinished
/// dependency lists it any more.
final class FinishWatcher: Foundation.Operation, @unchecked Sendable {  // mutable state: `state`'s lock
    private struct State {
        var onFinish: (@Sendable () -> Void)?
        #if canImport(ObjectiveC)
            /// The operation observed by KVO, until the watcher fired.
            var observed: Foundation.Operation?
        #endif
    }

    private let state: Locked<State>
    private let selfReference = Locked<FinishWatcher?>(nil)

    /// Calls `onFinish` once, when `operation` finished (at once if it already did).
    @discardableResult
    init(watching operation: Foundation.Operation, onFinish: @escaping @Sendable () -> Void) {
        state = Locked(State(onFinish: onFinish))
        super.init()
        selfReference.withLock { $0 = self }
        #if canImport(ObjectiveC)
            operation.addObserver(self, forKeyPath: Self.finishedKey, options: [], context: nil)
            let firedMeanwhile = state.withLock { state in
                if state.onFinish != nil { state.observed = operation }
                return state.onFinish == nil
            }
            if firedMeanwhile { operation.removeObserver(self, forKeyPath: Self.finishedKey) }
        #endif
        addDependency(operation)
        _ = isReady  // whether or not `addDependency` asked: an operation finished already fires now
    }

    #if canImport(ObjectiveC)
        private static let finishedKey = "isFinished"

        override func observeValue(
            forKeyPath keyPath: String?, of object: Any?, change: [NSKeyValueChangeKey: Any]?,
            context: UnsafeMutableRawPointer?
        ) {
            guard keyPath == Self.finishedKey, let operation = object as? Foundation.Operation,
                operation.isFinished
            else { return }
            fire()
        }
    #endif

    override var isReady: Bool {
        let ready = super.isReady
        if ready { fire() }
        return ready
    }

    private func fire() {
        let taken = state.withLock { state in
            defer { state = State() }
            return state
        }
        guard let onFinish = taken.onFinish else { return }
        onFinish()
        #if canImport(ObjectiveC)
            taken.observed?.removeObserver(self, forKeyPath: Self.finishedKey)
        #endif
        selfReference.withLock { $0 = nil }
    }
}
