/// A one-time signal from `execute()` to a task made earlier in `queue.run`'s caller (S22): `true`
/// when the operation executes, `false` when it finished without executing. The task waits for it
/// holding no thread.
final class ExecuteGate: Sendable {
    private let state = Locked<(opened: Bool?, waiter: CheckedContinuation<Bool, Never>?)>((nil, nil))

    /// Whether the operation executes, once it is known.
    func wait() async -> Bool {
        await withCheckedContinuation { continuation in
            let opened = state.withLock { state -> Bool? in
                if state.opened == nil { state.waiter = continuation }
                return state.opened
            }
            if let opened { continuation.resume(returning: opened) }
        }
    }

    /// Tells the waiting task, once; later calls change nothing.
    func open(executing: Bool) {
        let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>?? in
            guard state.opened == nil else { return nil }
            state.opened = executing
            defer { state.waiter = nil }
            return .some(state.waiter)
        }
        if case .some(let waiter?) = waiter { waiter.resume(returning: executing) }
    }
}

/// An operation whose work `queue.run` starts in its caller's context (S22): ``AsyncOperation``.
protocol RunsInCallersContext: ConditionalOperation {
    /// Makes, here, the task that runs the work once the operation executes.
    func prepareTaskInCallersContext()
}
