/// One task's wait for an operation to finish that the task's cancellation can end first (S14):
/// whichever comes first resumes the continuation, once.
final class FinishWait: Sendable {
    // mutable state: `state`, behind its lock
    private enum State {
        case waiting
        case suspended(CheckedContinuation<Void, any Error>)
        case finished
        case cancelled
    }

    private let state = Locked(State.waiting)

    /// Waits until ``finish()``; throws `CancellationError` once ``cancel()`` came first.
    func wait() async throws {
        try await withCheckedThrowingContinuation { continuation in
            let resume = state.withLock { state -> Result<Void, any Error>? in
                switch state {
                case .waiting:
                    state = .suspended(continuation)
                    return nil
                case .finished: return .success(())
                case .cancelled: return .failure(CancellationError())
                case .suspended: fatalError("FinishWait.wait() called twice")
                }
            }
            if let resume { continuation.resume(with: resume) }
        }
    }

    func finish() {
        end(.finished)?.resume()
    }

    func cancel() {
        end(.cancelled)?.resume(throwing: CancellationError())
    }

    /// Ends the wait as `outcome` unless it ended already; returns the continuation to resume.
    private func end(_ outcome: State) -> CheckedContinuation<Void, any Error>? {
        state.withLock { state in
            switch state {
            case .waiting:
                state = outcome
                return nil
            case .suspended(let continuation):
                state = outcome
                return continuation
            case .finished, .cancelled:
                return nil
            }
        }
    }
}
