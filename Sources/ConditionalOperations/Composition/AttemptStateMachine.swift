import Foundation

/// Operations run one at a time, with a wait between them, as a value without side effects: the
/// attempts of a ``RetryOperation`` and the iterations of a ``RepeatOperation`` (both called
/// attempts here). Each event returns its action, which the operation runs once it unlocked.
/// Generic over the attempt and the timer so that its tests drive it with plain values.
struct AttemptStateMachine<Attempt, Timer> {
    enum State {
        /// Before the first attempt, or before an attempt retried at once (`lastErrors` are the
        /// failed attempt's, empty before the first).
        case idle(lastErrors: [any Error])
        /// Attempt `number` is being made, outside the lock.
        case making(number: Int)
        case running(Attempt, number: Int)
        /// Backing off after a failed attempt; the timer is set once made, outside the lock.
        case waiting(Timer?, lastErrors: [any Error])
        case finished
    }

    private(set) var state = State.idle(lastErrors: [])
    /// Attempts started so far.
    private(set) var attempts = 0
    /// Cancelled: no attempt starts any more.
    private(set) var isCancelled = false

    enum StartAttemptAction {
        /// A cancel ended the wait this start was for: nothing to do.
        case none
        /// Cancelled before the attempt: finish with the last attempt's errors.
        case finish([any Error])
        /// Make attempt `number`, then report it with ``attemptMade(_:)``.
        case make(number: Int)
    }

    /// The next attempt is due: the first, one retried at once, or one after the back-off.
    mutating func startAttempt(afterBackoff: Bool) -> StartAttemptAction {
        switch state {
        case .idle(let lastErrors) where !afterBackoff, .waiting(_, let lastErrors) where afterBackoff:
            // Due, unless a cancel came first.
            guard !isCancelled else {
                state = .finished
                return .finish(lastErrors)
            }
            attempts += 1
            state = .making(number: attempts)
            return .make(number: attempts)
        case .finished where afterBackoff:
            // The timer fired after a cancel ended the wait.
            return .none
        case .idle, .waiting, .making, .running, .finished:
            fatalError("startAttempt(afterBackoff: \(afterBackoff)) in state \(state)")
        }
    }

    enum AttemptMadeAction {
        case run
        /// Cancelled while it was made: cancel it, then run it (it finishes at once).
        case runCancelled
    }

    mutating func attemptMade(_ attempt: Attempt) -> AttemptMadeAction {
        switch state {
        case .making(let number):
            // Running from now on: a cancel reaches it.
            state = .running(attempt, number: number)
            return isCancelled ? .runCancelled : .run
        case .idle, .waiting, .running, .finished:
            fatalError("attemptMade in state \(state): no attempt was being made")
        }
    }

    /// The attempt being made turned out to be none (a repeat's `makeIteration` returned `nil`):
    /// the operation finishes.
    mutating func noAttemptMade() {
        guard case .making = state else {
            fatalError("noAttemptMade in state \(state): no attempt was being made")
        }
        state = .finished
    }

    enum CancelAction {
        /// Cancelled before, or what comes next sees the flag.
        case none
        case cancelAttempt(Attempt)
        /// End the back-off at once: cancel the timer (if made) and finish with these errors.
        case endWait(Timer?, [any Error])
    }

    mutating func cancel() -> CancelAction {
        guard !isCancelled else { return .none }
        isCancelled = true
        switch state {
        case .running(let attempt, _):
            // The attempt finishes cancelled; its end finishes the retry operation.
            return .cancelAttempt(attempt)
        case .waiting(let timer, let lastErrors):
            // No attempt runs: finish now.
            state = .finished
            return .endWait(timer, lastErrors)
        case .idle, .making, .finished:
            // The next start (or the attempt being made) sees the flag; or it is over.
            return .none
        }
    }

    /// The running attempt ended and no other follows (a retry's success, a repeat's failure):
    /// the operation finishes with its outcome.
    mutating func finishAfterAttempt() {
        guard case .running = state else {
            fatalError("finishAfterAttempt in state \(state): no attempt was running")
        }
        state = .finished
    }

    enum AttemptEndedAction {
        /// Finish with the attempt's errors; `cancelling` first if it was cancelled without an error.
        case finish(cancelling: Bool)
        /// Start the next attempt now (not on the failed attempt's stack).
        case retryNow
        /// Make a timer for `delay`, report it with ``timerMade(_:)``, and start the next attempt when
        /// it fires.
        case wait(TimeInterval)
    }

    /// The running attempt ended with `errors` (a retry's failure, a repeat's success); `delay` is
    /// the wait before the next one, `nil` when there is none (out of attempts, `shouldRetry` said
    /// no, or the back-off or interval gave up).
    mutating func attemptEnded(errors: [any Error], nextAfter delay: TimeInterval?) -> AttemptEndedAction {
        guard case .running = state else {
            fatalError("attemptEnded in state \(state): no attempt was running")
        }
        guard !isCancelled, let delay else {
            // An attempt cancelled without an error: the retry operation ends cancelled too.
            state = .finished
            return .finish(cancelling: errors.isEmpty && !isCancelled)
        }
        guard delay > 0 else {
            state = .idle(lastErrors: errors)
            return .retryNow
        }
        state = .waiting(nil, lastErrors: errors)
        return .wait(delay)
    }

    enum TimerMadeAction {
        /// Resume it, once unlocked.
        case resume
        /// A cancel ended the wait meanwhile: cancel it and resume it, so that it can be released.
        case discard
    }

    mutating func timerMade(_ timer: Timer) -> TimerMadeAction {
        switch state {
        case .waiting(nil, let lastErrors):
            // Its firing starts the next attempt.
            state = .waiting(timer, lastErrors: lastErrors)
            return .resume
        case .finished:
            // Cancelled while it was made.
            return .discard
        case .idle, .making, .running, .waiting:
            fatalError("timerMade in state \(state): no back-off was waiting for a timer")
        }
    }
}
