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

    /// Opens the gate once; returns the continuation to resume, unlocked. Later calls change nothing.
    mutating func open(executing: Bool) -> UnsafeContinuation<Bool, Never>? {
        switch self {
        case .closed:
            self = .opened(executing)
            return nil
        case .waiting(let continuation):
            self = .opened(executing)
            return continuation
        case .none, .opened:
            return nil
        }
    }
}
