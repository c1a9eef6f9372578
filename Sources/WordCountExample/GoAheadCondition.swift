import ConditionalOperations

/// A condition the program answers when it decides to: until ``give()`` is called, an operation
/// with it waits in `evaluatingConditions`, holding no thread and no queue slot.
///
/// A real program waits the same way for a user's confirmation or a sign-in. Here it holds the
/// report back while the queue's diagnostic report is printed. (Tests use `ManualCondition` from
/// the ConditionalOperationsTesting product, which does the same and more.)
final class GoAheadCondition: OperationCondition {
    private struct State {
        var given = false
        var asked = false
        /// The evaluations waiting for the go-ahead.
        var unanswered: [@Sendable (OperationConditionResult) -> Void] = []
        /// The tasks in ``asked()``.
        var waitingToBeAsked: [CheckedContinuation<Void, Never>] = []
    }

    let name = "go-ahead"
    private let state = Protected(State())

    func evaluate(
        for operation: ConditionalOperation,
        completion: @escaping @Sendable (OperationConditionResult) -> Void
    ) {
        let (given, waiting) = state.withLock { state in
            state.asked = true
            if !state.given { state.unanswered.append(completion) }
            defer { state.waitingToBeAsked = [] }
            return (state.given, state.waitingToBeAsked)
        }
        // Called outside the lock: whatever they run must not find it taken.
        for task in waiting { task.resume() }
        if given { completion(.satisfied) }
    }

    /// Returns once an operation asked for the go-ahead, that is, once it waits for it.
    func asked() async {
        await withCheckedContinuation { task in
            let asked = state.withLock { state in
                if !state.asked { state.waitingToBeAsked.append(task) }
                return state.asked
            }
            if asked { task.resume() }
        }
    }

    /// Satisfies every evaluation waiting for the go-ahead, and every later one.
    func give() {
        let waiting = state.withLock { state in
            state.given = true
            defer { state.unanswered = [] }
            return state.unanswered
        }
        for completion in waiting { completion(.satisfied) }
    }
}
