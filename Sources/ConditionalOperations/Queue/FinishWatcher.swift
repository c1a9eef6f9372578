import Foundation

/// Tells a ``ConditionalOperationQueue`` when a plain `Foundation.Operation` it holds finished.
///
/// A watcher is a dependent of the operation, never enqueued: Foundation asks a dependent
/// whether it is ready once its dependencies finished, and this one's answer fires it. It is the
/// same mechanism on every platform. swift-corelibs-foundation's `Operation`, rewritten in 2019
/// to follow the Objective-C implementation, has a finishing operation walk its dependents and
/// read each one's `isReady` (the getter, so this override) once its last dependency finished;
/// Apple's `NSOperation` observes each dependency's `isFinished` and re-reads the dependent's
/// readiness the same way. A KVO observation of its own would not do on Apple platforms: one
/// registered between an operation's `willChangeValue` and `didChangeValue` misses the change,
/// and Swift's `\.isFinished` key path is named `finished` there, while Foundation and the
/// operations themselves post `isFinished`.
///
/// It asks itself once more after adding the dependency, for an operation that finished
/// already. It keeps itself alive until it fired, so Foundation's unretained pointer to it can
/// never dangle: it fires only once Foundation's own readiness is `true`, when no unfinished
/// dependency lists it any more.
final class FinishWatcher: Foundation.Operation, @unchecked Sendable {  // mutable state: `pending`'s lock
    private let pending: Locked<(@Sendable () -> Void)?>
    private let selfReference = Locked<FinishWatcher?>(nil)

    /// Calls `onFinish` once, when `operation` finished (at once if it already did).
    @discardableResult
    init(watching operation: Foundation.Operation, onFinish: @escaping @Sendable () -> Void) {
        pending = Locked(onFinish)
        super.init()
        selfReference.withLock { $0 = self }
        addDependency(operation)
        _ = isReady  // whether or not `addDependency` asked: an operation finished already fires now
    }

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
        selfReference.withLock { $0 = nil }
    }
}
