/// Where the task `queue.run` made in its caller (S22) stands, kept under the operation's own lock:
/// the task waits, holding no thread, until `execute()` opens the gate (`true`) or the operation
/// finished without executing (`false`).
enum ExecuteGate {
    /// No task of the caller's: `execute()` makes the task itself.
    case none
    /// The task was made and has not reached its wait yet.
    case closed
    /// The task waits.
    case waiting(UnsafeContinuation<Bool, Never>)
    /// Opened; the task runs the work if `true`.
    case opened(Bool)

    /// The task reaches its wait: the answer at once if the gate was opened, else `nil` and the
    /// continuation is kept.
    mutating func wait(_ continuation: UnsafeContinuation<Bool, Never>) -> Bool? {
        switch self {
        case .opened(let executing):
            return executing
        case .closed:
            self = .waiting(continuation)
            return nil
        case .none, .waiting:
            fatalError("ExecuteGate.wait in state \(self): only the one task of queue.run waits")
        }
    }

    /// What opening the gate leaves to the caller, once unlocked.
    enum Opening {
        /// No task of the caller's: `execute()` makes one itself.
        case noTask
        /// The task reads the answer when it reaches its wait, or was told already.
        case recorded
        /// Resume the waiting task with the answer.
        case resume(UnsafeContinuation<Bool, Never>)
    }

    /// Opens the gate once; later calls change nothing.
    mutating func open(executing: Bool) -> Opening {
        switch self {
        case .none:
            return .noTask
        case .closed:
            self = .opened(executing)
            return .recorded
        case .waiting(let continuation):
            self = .opened(executing)
            return .resume(continuation)
        case .opened:
            return .recorded
        }
    }
}
