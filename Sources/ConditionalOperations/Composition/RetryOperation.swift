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
/// - Everything outside sees the retry operation as one operation: one start, one finish with its
///   own errors, one report to its queue's delegate, one child of an enclosing group. The
///   attempts run in its own place, on a queue of the library's without a limit, never waiting
///   for a slot of the queue or group that runs it (S32); once that queue is shut down, an attempt
///   made is cancelled with ``OperationError/queueShutDown``. An attempt may need an exclusivity
///   category the retry operation holds (S7).
///
/// For attempts that produce nothing, `RetryOperation<Void>` also takes any ``ConditionalOperation``
/// (``init(maximumAttempts:backoff:shouldRetry:makeAttempt:)-(_,_,_,(Int)->ConditionalOperation)``).
open class RetryOperation<Output: Sendable>: ResultOperation<Output>, AttemptRunning, @unchecked Sendable {
    // mutable state: `lockedAttempts`, `lockedQueue` and `lockedTimeline`, behind the operation's own lock (`withOwnLock`)
    /// What an ended attempt leaves for the next: a failed attempt leaves its errors.
    typealias Carried = [any Error]
    /// The attempts, each failure leaving its errors. Only reached under the operation's own
    /// lock, which makes every access exclusive.
    @exclusivity(unchecked) var lockedAttempts = Attempts(first: [])
    /// The queue that runs the retry operation, whose shutdown reaches the attempts; weak, so that
    /// a finished retry operation holds no queue (S12).
    @exclusivity(unchecked) weak var lockedQueue: OperationQueue?
    /// Where the attempts are recorded, once the operation was (an ``OperationTimeline``).
    @exclusivity(unchecked) var lockedTimeline: TimelineParent?
    private let maximumAttempts: Int
    private let backoff: RetryBackoff
    private let shouldRetry: @Sendable ([any Error]) -> Bool
    private let makeOperation: @Sendable (Int) -> ConditionalOperation
    private let outcome: @Sendable (ConditionalOperation) -> Result<Output, any Error>?

    /// Retries the operations `makeAttempt` makes, given the attempt's number (from 1).
    ///
    /// - Parameters:
    ///   - maximumAttempts: attempts in all, the first included: at least 1 (less stops the program,
    ///     naming the value).
    ///   - backoff: the wait after a failed attempt. Default: none.
    ///   - shouldRetry: whether the errors of a failed attempt call for another. Default: always.
    ///   - makeAttempt: a new operation for each attempt, not enqueued anywhere.
    public init(
        maximumAttempts: Int, backoff: RetryBackoff = .immediate,
        shouldRetry: @escaping @Sendable ([any Error]) -> Bool = { _ in true },
        makeAttempt: @escaping @Sendable (_ attempt: Int) -> ResultOperation<Output>
    ) {
        ValueCheck.require(
            ValueCheck.attempts(maximumAttempts, call: "RetryOperation(maximumAttempts: \(maximumAttempts))"))
        self.maximumAttempts = maximumAttempts
        self.backoff = backoff
        self.shouldRetry = shouldRetry
        self.makeOperation = makeAttempt
        self.outcome = { ($0 as? ResultOperation<Output>)?.result }
        super.init()
    }

    init(
        maximumAttempts: Int, backoff: RetryBackoff, shouldRetry: @escaping @Sendable ([any Error]) -> Bool,
        makeOperation: @escaping @Sendable (_ attempt: Int) -> ConditionalOperation,
        outcome: @escaping @Sendable (ConditionalOperation) -> Result<Output, any Error>?
    ) {
        ValueCheck.require(
            ValueCheck.attempts(maximumAttempts, call: "RetryOperation(maximumAttempts: \(maximumAttempts))"))
        self.maximumAttempts = maximumAttempts
        self.backoff = backoff
        self.shouldRetry = shouldRetry
        self.makeOperation = makeOperation
        self.outcome = outcome
        super.init()
    }

    /// The number of attempts started so far.
    public var attemptCount: Int { withOwnLock { lockedAttempts.started } }

    // MARK: Running

    /// Recorded in a timeline: its attempts are recorded under it.
    override func recordInnerOperations(in parent: TimelineParent) {
        withOwnLock { lockedTimeline = parent }
    }

    /// Starts the first attempt.
    open override func execute() {
        startAttempts()
    }

    /// `false`: a cancelled retry operation finishes once its running attempt finished.
    public final override var finishesWhenCancelled: Bool { false }

    /// Cancels the retry operation and its running attempt, or ends its wait.
    open override func cancel() {
        cancelAttempts()
    }

    // MARK: Attempts (AttemptRunning)

    func makeAttempt(_ number: Int, previous _: [any Error]) -> ConditionalOperation? {
        makeOperation(number)
    }

    /// A success ends the retry; a failure (errors, or cancelled) leaves its errors.
    func verdict(on attempt: ConditionalOperation, previous _: [any Error]) -> Attempts.Verdict {
        let errors = attempt.errors
        return errors.isEmpty && !attempt.isCancelled ? .stop([]) : .goOn(errors)
    }

    /// User code (the predicate, a custom back-off), run outside the lock.
    func delay(afterAttempt number: Int, leaving errors: [any Error]) -> TimeInterval? {
        guard number < maximumAttempts, shouldRetry(errors) else { return nil }
        return backoff.delay(afterAttempt: number, errors: errors)
    }

    func finish(endingWith attempt: ConditionalOperation, errors _: [any Error]) {
        switch outcome(attempt) {
        case .success(let output)?: finish(returning: output)
        case .failure(let error)?: finish(error: error)
        case nil: finish()
        }
    }

    /// The last attempt's errors; an attempt cancelled without an error, not retried, ends the
    /// retry operation cancelled too.
    func finish(leaving errors: [any Error]) {
        if errors.isEmpty && !isCancelled { cancel() }
        finish(errors: errors)
    }
}

extension RetryOperation where Output == Void {
    /// Retries the operations `makeAttempt` makes, given the attempt's number (from 1); for
    /// attempts of any kind, whose success carries no value.
    ///
    /// - Parameters:
    ///   - maximumAttempts: attempts in all, the first included: at least 1 (less stops the program,
    ///     naming the value).
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
