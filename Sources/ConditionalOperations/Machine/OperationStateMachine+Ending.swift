extension OperationStateMachine.Ending {
    /// Whether it was launched: `isExecuting` turned `true` (announced by KVO where Foundation
    /// needs it) and stays so until `isFinished` flips, whether or not `execute()` was called.
    var wasLaunched: Bool {
        switch self {
        case .executed, .cancelledAsItStarted, .finishedAsItStarted: true
        case .cancelled, .failed, .skipped: false
        }
    }

    /// How an operation launched without `execute()` being called ends: a cancel beats a finish.
    static func launchedWithoutExecuting(isCancelled: Bool) -> Self {
        isCancelled ? .cancelledAsItStarted : .finishedAsItStarted
    }
}
