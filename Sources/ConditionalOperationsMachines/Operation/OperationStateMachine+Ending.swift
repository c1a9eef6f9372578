extension OperationStateMachine {
    /// How the operation ends, from the moment it is started: the phases that end it carry it.
    /// Without executing, the one reason, in this order: a cancel beats an early finish or a
    /// failure, which beat a skip (S17).
    public enum Ending: UInt8, Sendable {
        /// `execute()` was called.
        case executed
        /// Launched (`isExecuting`, `didStart` told), then cancelled before `execute()` was called,
        /// by a `didStart` observer or another thread (S1): it did not execute.
        case cancelledAsItStarted
        /// Launched, then finished by a `didStart` observer or another thread before `execute()`
        /// was called (S1, S6): it did not execute.
        case finishedAsItStarted
        /// Cancelled before it executed (S4).
        case cancelled
        /// Finished early (S6), in a dependency cycle (S9), or a condition failed (S2).
        case failed
        /// A condition skipped it (S17): no error.
        case skipped
        /// It joined an operation with its coalescing key and finished as that one did, with its
        /// errors, without executing (S27). A joined operation that was cancelled or skipped makes
        /// it end ``cancelled`` or ``skipped`` instead.
        case joined
    }
}

extension OperationStateMachine.Ending {
    /// Whether it was launched: `isExecuting` turned `true` (announced by KVO where Foundation
    /// needs it) and stays so until `isFinished` flips, whether or not `execute()` was called.
    @inlinable public var wasLaunched: Bool {
        switch self {
        case .executed, .cancelledAsItStarted, .finishedAsItStarted: true
        case .cancelled, .failed, .skipped, .joined: false
        }
    }

    /// How an operation launched without `execute()` being called ends: a cancel beats a finish.
    @inlinable public static func launchedWithoutExecuting(isCancelled: Bool) -> Self {
        isCancelled ? .cancelledAsItStarted : .finishedAsItStarted
    }
}
