import ConditionalOperationsMachines

/// The lifecycle properties whose changes an operation announces by key-value notification:
/// `willChangeValue(forKey:)` before the value changes, `didChangeValue(forKey:)` after.
enum ObservedProperty: String {
    case isReady
    case isExecuting
    case isFinished
    case isCancelled

    /// Whether Foundation is told. Apple's Foundation listens to every one; swift-corelibs-foundation
    /// records `isExecuting` only for its own `start()`, which a `ConditionalOperation` replaces,
    /// ignores `isCancelled`, and pays locks and string comparisons for each notification: neither
    /// is posted there.
    var isPosted: Bool {
        switch self {
        case .isReady, .isFinished: true
        case .isExecuting, .isCancelled: OperationHost.postsExecutingKVO
        }
    }
}
