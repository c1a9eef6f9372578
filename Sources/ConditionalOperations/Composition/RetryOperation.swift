import Dispatch
import Foundation

/// Runs an operation and, while it fails, a freshly made one again, up to a number of attempts,
/// waiting between attempts as a ``RetryBackoff`` says.
///
/// ```swift
/// let fetch = RetryOperation(maximumAttempts: 4, backoff: .exponential(initial: .seconds(1))) { attempt in
///     FetchUsersOperation()  // a ResultOperation<[User]>
/// }
/// process.inject(from: fetch) { process, users in process.users = users }
/// ```
///
/// - An attempt fails when it finishes with errors or cancelled. The next one is made by calling
///   `makeAttempt` again (an operation runs only once), after the back-off's wait, which holds no
///   thread. Retrying stops after `maximumAttempts`, when `shouldRetry` returns `false`, when the
///   back-off returns `nil`, or when the retry operation is cancelled.
/// - The retry operation finishes once its last attempt is finished (its `isFinished` is `true`,
///   S25), so that its dependents never run beside that attempt's end: with that attempt's value
///   (``ResultOperation/result``) on success, or with that attempt's errors on failure (plus its
///   own cancel errors, if it was cancelled).
/// - Cancelling it cancels the running attempt, or ends the wait at once; no attempt starts after.
/// - Observers of the retry operation see one operation: one start, one finish. The attempts run
///   on the queue that runs the retry operation (on a queue that runs one operation at a time
///   they would wait for it: there, and without a queue, on one of the library's); an attempt may
///   need an exclusivity category the retry operation holds (S7).
///
/// For attempts that produce nothing, `RetryOperation<Void>` also takes any ``ConditionalOperation``
/// (``init(maximumAttempts:backoff:shouldRetry:makeAttempt:)-(_,_,_,(Int)->ConditionalOperation)``).
open class RetryOperation<Output: Sendable>: ResultOperation<Output>, @unchecked Sendable {
    // mutable state: `retry`, behind its lock
    private struct State {
        var machine = AttemptStateMachine<ConditionalOperation, any DispatchSourceTimer>()
        /// The queue that runs the retry operation, where the attempts run; weak, so that a
        /// finished retry operation holds no queue (S12).
        weak var queue: OperationQueue?
    }

    /// The attempts, under one lock.
    private let retry = Locked(State())
    private let maximumAttempts: Int
    private let backoff: RetryBackoff
    private let shouldRetry: @Sendable ([any Error]) -> Bool
    private let makeAttempt: @Sendable (Int) -> ConditionalOperation
    private let outcome: @Sendable (ConditionalOperation) -> Result<Output, any Error>?

    /// Retries the operations `makeAttempt` makes, given the attempt's number (from 1).
    ///
    /// - Parameters:
    ///   - maximumAttempts: attempts in all, the first included (at least 1).
    ///   - backoff: the wait after a failed attempt. Default: none.
    ///   - shouldRetry: whether the errors of a failed attempt call for another. Default: always.
    ///   - makeAttempt: a new operation for each attempt, not enqueued anywhere.
    public init(
        maximumAttempts: Int, backoff: RetryBackoff = .immediate,
        shouldRetry: @escaping @Sendable ([any Error]) -> Bool = { _ in true },
        makeAttempt: @escaping @Sendable (_ attempt: Int) -> ResultOperation<Output>
    ) {
        self.maximumAttempts = max(1, maximumAttempts)
        self.backoff = backoff
        self.shouldRetry = shouldRetry
        self.makeAttempt = makeAttempt
        self.outcome = { ($0 as? ResultOperation<Output>)?.result }
        super.init()
    }

    init(
        maximumAttempts: Int, backoff: RetryBackoff, shouldRetry: @escaping @Sendable ([any Error]) -> Bool,
        makeOperation: @escaping @Sendable (_ attempt: Int) -> ConditionalOperation,
        outcome: @escaping @Sendable (ConditionalOperation) -> Result<Output, any Error>?
    ) {
        self.maximumAttempts = max(1, maximumAttempts)
        self.backoff = backoff
        self.shouldRetry = shouldRetry
        self.makeAttempt = makeOperation
        self.outcome = outcome
        super.init()
    }

    /// The number of attempts started so far.
    public var attemptCount: Int { retry.withLock { $0.machine.attempts } }

    // MARK: Running

    /// Starts the first attempt.
    open override func execute() {
        let queue = ConditionalOperationQueue.current
        retry.withLock { $0.queue = queue }
        startAttempt(afterBackoff: false)
    }

    /// `false`: a cancelled retry operation finishes once its running attempt finished.
    public final override var finishesWhenCancelled: Bool { false }

    /// Cancels the retry operation and its running attempt, or ends its wait.
    open override func cancel() {
        super.cancel()
        guard isCancelled else { return }  // finishing had begun
        switch retry.withLock({ $0.machine.cancel() }) {
        case .none:
            break
        case .cancelAttempt(let attempt):
            attempt.cancel()
        case .endWait(let timer, let errors):
            timer?.cancel()
            finish(errors: errors)
        }
    }

    private func startAttempt(afterBackoff: Bool) {
        switch retry.withLock({ $0.machine.startAttempt(afterBackoff: afterBackoff) }) {
        case .none:
            return
        case .finish(let errors):
            finish(errors: errors)
        case .make(let number):
            let attempt = makeAttempt(number)
            attempt.adoptParent(self)
            let (made, queue) = retry.withLock { ($0.machine.attemptMade(attempt), $0.queue) }
            // Once the attempt is completely finished (`isFinished` flipped), so that the retry
            // operation's dependents never start beside its end (S25). Holds the retry operation:
            // it lives at least as long as its running attempt.
            attempt.whenFinished {
                self.attemptFinished(attempt, number: number, errors: attempt.errors)
            }
            if case .runCancelled = made { attempt.cancel() }
            LibraryQueue.forAttempts(on: queue).addOperation(attempt)
        }
    }

    /// Attempt number `number` finished with `errors`: finish, or retry after the back-off.
    fileprivate func attemptFinished(_ attempt: ConditionalOperation, number: Int, errors: [any Error]) {
        if errors.isEmpty && !attempt.isCancelled {
            retry.withLock { $0.machine.finishAfterAttempt() }
            switch outcome(attempt) {
            case .success(let output)?: finish(returning: output)
            case .failure(let error)?: finish(error: error)
            case nil: finish()
            }
            return
        }
        // User code (the predicate, a custom back-off) runs outside the lock.
        var delay: TimeInterval?
        if number < maximumAttempts, !retry.withLock({ $0.machine.isCancelled }), shouldRetry(errors) {
            delay = backoff.delay(afterAttempt: number, errors: errors)
        }
        let qos = qualityOfService
        switch retry.withLock({ $0.machine.attemptEnded(errors: errors, nextAfter: delay) }) {
        case .finish(let cancelling):
            if cancelling { cancel() }
            finish(errors: errors)
        case .retryNow:
            // Not on this stack: attempts that fail synchronously would nest ever deeper.
            DispatchQueue.global(qos: qos.dispatchQoSClass).async {
                self.startAttempt(afterBackoff: false)
            }
        case .wait(let delay):
            // Made and resumed outside the lock; this reference keeps it alive until resumed, so a
            // cancel meanwhile never releases a suspended timer.
            let timer = OneShotTimer.make(at: .after(delay), qualityOfService: qos) { [weak self] in
                self?.startAttempt(afterBackoff: true)
            }
            if case .discard = retry.withLock({ $0.machine.timerMade(timer) }) { timer.cancel() }
            timer.resume()
        }
    }
}

extension RetryOperation where Output == Void {
    /// Retries the operations `makeAttempt` makes, given the attempt's number (from 1); for
    /// attempts of any kind, whose success carries no value.
    ///
    /// - Parameters:
    ///   - maximumAttempts: attempts in all, the first included (at least 1).
    ///   - backoff: the wait after a failed attempt. Default: none.
    ///   - shouldRetry: whether the errors of a failed attempt call for another. Default: always.
    ///   - makeAttempt: a new operation for each attempt, not enqueued anywhere.
    public convenience init(
        maximumAttempts: Int, backoff: RetryBackoff = .immediate,
        shouldRetry: @escaping @Sendable ([any Error]) -> Bool = { _ in true },
        makeAttempt: @escaping @Sendable (_ attempt: Int) -> ConditionalOperation
    ) {
        self.init(
            maximumAttempts: maximumAttempts, backoff: backoff, shouldRetry: shouldRetry,
            makeOperation: makeAttempt, outcome: { _ in .success(()) })
    }
}
