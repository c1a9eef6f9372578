/// The lifecycle properties whose changes an operation announces by key-value notification:
/// `willChangeValue(forKey:)` before the value changes, `didChangeValue(forKey:)` after.
enum ObservedProperty: String {
    case isReady
    case isExecuting
    case isFinished

    /// Whether Foundation is told. Apple's Foundation listens to every one; swift-corelibs-foundation
    /// records `isExecuting` only for its own `start()`, which a `ConditionalOperation` replaces,
    /// and pays locks and string comparisons for each notification: it is not told there.
    var isPosted: Bool {
        self != .isExecuting || OperationStateMachine.postsExecutingKVO
    }
}
