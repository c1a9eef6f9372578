import Foundation

/// Tells a ``ConditionalOperationQueue`` when a plain `Foundation.Operation` it holds finished.
///
/// swift-corelibs-foundation has no KVO: the only public sign that an operation finished is the
/// `isReady` query Foundation makes of each operation depending on it. A watcher is such a
/// dependent, never enqueued. It keeps itself alive until it fired, so Foundation's unretained
/// pointer to it can never dangle (a dependent released before its dependency finishes would).
final class FinishWatcher: Foundation.Operation, @unchecked Sendable {  // mutable state: `pending`'s lock
    private let pending: Locked<(@Sendable () -> Void)?>
    private let selfReference = Locked<FinishWatcher?>(nil)

    /// Calls `onFinish` once, when `operation` finished (at once if it already did).
    @discardableResult
    init(watching operation: Foundation.Operation, onFinish: @escaping @Sendable () -> Void) {
        pending = Locked(onFinish)
        super.init()
        selfReference.withLock { $0 = self }
        #if canImport(Darwin)
            // Apple's Foundation tells dependents through KVO, not through `isReady` queries.
            let observation = operation.observe(\.isFinished, options: [.initial]) { [self] operation, _ in
                if operation.isFinished { fire() }
            }
            self.observation.withLock { $0 = observation }
            if pending.withLock({ $0 == nil }) { self.observation.withLock { $0 = nil } }  // fired at once
        #else
            addDependency(operation)  // Foundation asks `isReady` now and when `operation` finishes
        #endif
    }

    #if canImport(Darwin)
        private let observation = Locked<NSKeyValueObservation?>(nil)
    #endif

    override var isReady: Bool {
        let ready = super.isReady
        if ready { fire() }
        return ready
    }

    private func fire() {
        guard
            let onFinish = pending.withLock({ value in
                defer { value = nil }
                return value
            })
        else { return }
        onFinish()
        #if canImport(Darwin)
            observation.withLock { $0 = nil }
        #endif
        selfReference.withLock { $0 = nil }
    }
}
