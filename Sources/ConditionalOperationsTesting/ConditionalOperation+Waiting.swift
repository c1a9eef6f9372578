import ConditionalOperations
import Foundation

extension ConditionalOperation {
    /// Returns once the operation finished and its `didFinish` observers returned, or throws a
    /// ``WaitTimeoutError`` saying why it still waits once `timeout` passed.
    ///
    /// ```swift
    /// queue.addOperation(upload)
    /// try await upload.untilFinished(timeout: .seconds(5))
    /// #expect(upload.errors.isEmpty)
    /// ```
    ///
    /// It holds no thread and polls nothing: it reads the operation's `events` against a timer,
    /// and whichever loses is cancelled before it returns or throws, so nothing of the wait is left
    /// running. Cancelling the calling task throws `CancellationError`; the operation is not
    /// cancelled. Unlike `untilFinished()`, a wait that never ends fails the test instead of
    /// hanging it.
    public func untilFinished(timeout: Duration) async throws {
        try await untilFinished(seconds: timeout.seconds)
    }

    /// ``untilFinished(timeout:)``, under its former name.
    @available(*, deprecated, renamed: "untilFinished(timeout:)")
    public func waitUntilFinished(timeout: Duration) async throws {
        try await untilFinished(seconds: timeout.seconds)
    }

    /// ``untilFinished(timeout:)``, with the timeout in seconds.
    @available(*, deprecated, message: "use untilFinished(timeout: .seconds(n))")
    public func waitUntilFinished(timeout: TimeInterval) async throws {
        try await untilFinished(seconds: timeout)
    }

    private func untilFinished(seconds timeout: TimeInterval) async throws {
        let events = self.events
        let outcome = try await race(
            {
                // The stream ends after didFinish, which comes after every didFinish observer.
                for await _ in events {}
            }, seconds: timeout)
        // The timer may win a race the operation had already won (a timeout of 0, a busy
        // machine): it failed only if the operation is still not finished.
        if case .timedOut = outcome, state != .finished {
            let diagnosis = self.diagnosis
            throw WaitTimeoutError(
                awaited: .finished, subject: diagnosis.name, timeout: timeout, diagnosis: diagnosis)
        }
    }

    /// Returns once the operation is in `state` or a later one, or throws a ``WaitTimeoutError``
    /// saying why it still waits once `timeout` passed.
    ///
    /// ```swift
    /// queue.addOperation(download)
    /// try await download.waitUntil(.executing, timeout: .seconds(5))
    /// download.cancel()
    /// ```
    ///
    /// States only move forward, and not every operation passes through each of them: a cancelled
    /// one goes from `ready` to `finishing` without executing, and one without conditions skips
    /// `evaluatingConditions`. Waiting for such a state returns once the operation is past it, so
    /// check `state` (or `isCancelled`) afterwards when it matters which way it went.
    ///
    /// Like ``untilFinished(timeout:)``, it holds no thread, polls nothing and leaves nothing
    /// running; cancelling the calling task throws `CancellationError`.
    public func waitUntil(_ state: State, timeout: Duration) async throws {
        try await waitUntil(state, seconds: timeout.seconds)
    }

    /// ``waitUntil(_:timeout:)-(_,Duration)``, with the timeout in seconds.
    @available(*, deprecated, message: "pass a Duration: waitUntil(state, timeout: .seconds(n))")
    public func waitUntil(_ state: State, timeout: TimeInterval) async throws {
        try await waitUntil(state, seconds: timeout)
    }

    private func waitUntil(_ state: State, seconds timeout: TimeInterval) async throws {
        let events = self.events
        let outcome = try await race(
            {
                // The stream yields the current state first, so a state already reached returns at once.
                for await event in events {
                    if case .stateChanged(let current) = event, current >= state { return }
                }
            }, seconds: timeout)
        // As for `untilFinished(timeout:)`: it failed only if the state is still not reached.
        if case .timedOut = outcome, self.state < state {
            let diagnosis = self.diagnosis
            throw WaitTimeoutError(
                awaited: .state(state), subject: diagnosis.name, timeout: timeout, diagnosis: diagnosis)
        }
    }
}
