import Foundation

/// Operations run one at a time, with a wait between them, as a value without side effects: the
/// attempts of a `RetryOperation` and the iterations of a `RepeatOperation` (both called
/// attempts here). It lives under the operation's own lock, beside the operation's machine, and
/// hears of the operation's cancel in the cancel's own trip, so a cancel and an attempt's end are
/// ordered once. Each event returns its action, which the runner (`AttemptRunning`) performs once
/// unlocked. Generic over the attempt, the timer and what an ended attempt leaves for the next
/// (a retry's errors, a repeat's output), so that its tests drive it with plain values.
package struct AttemptStateMachine<Attempt, Timer, Carried> {
    /// Where the attempts are; `cancelled` is whether the operation was cancelled, where a cancel
    /// changes what comes next.
    package enum Phase {
        /// Before `execute()`; `Carried` is what the first attempt is given.
        case idle(Carried, cancelled: Bool)
        /// Attempt `number` is being made, outside the lock.
        case making(number: Int, cancelled: Bool)
        /// Attempt `number` runs; its end is reported once it is finished.
        case running(Attempt, number: Int, cancelled: Bool)
        /// Attempt `number` ended, leaving `Carried`; the wait before the next is being chosen,
        /// outside the lock.
        case deciding(number: Int, Carried, cancelled: Bool)
        /// The next attempt starts at once, on another stack.
        case due(number: Int, Carried, cancelled: Bool)
        /// Backing off after attempt `number`; the timer is set once made, outside the lock. A
        /// cancel ends the wait at once.
        case waiting(Timer?, number: Int, Carried)
        /// No attempt starts any more; `made` attempts were made.
        case finished(made: Int)
    }

    package private(set) var phase: Phase

    /// `first`: what the first attempt is given, and what the operation finishes with if it
    /// makes none.
    package init(first: Carried) {
        phase = .idle(first, cancelled: false)
    }

    /// Attempts started: a retry's `RetryOperation.attemptCount`, the one being made included.
    package var started: Int {
        switch phase {
        case .idle: 0
        case .making(let number, _), .running(_, let number, _), .deciding(let number, _, _),
            .due(let number, _, _), .waiting(_, let number, _), .finished(let number):
            number
        }
    }

    /// Attempts made: a repeat's `RepeatOperation.iterationCount`, the one being made left out
    /// (it may turn out to be none).
    package var made: Int {
        if case .making(let number, _) = phase { return number - 1 }
        return started
    }

    // MARK: Starting an attempt

    package enum StartAction {
        /// Make attempt `number`, given what the last one left, then report it with
        /// ``attemptMade(_:)``.
        case make(number: Int, Carried)
        /// A cancel came first: finish with what the last attempt left.
        case finish(Carried)
        /// A cancel ended the wait this start was for, and finished the operation: nothing to do.
        case none
    }

    /// `execute()`: the first attempt is due.
    package mutating func start() -> StartAction {
        switch phase {
        case .idle(let first, cancelled: false):
            // The first attempt.
            phase = .making(number: 1, cancelled: false)
            return .make(number: 1, first)
        case .idle(let first, cancelled: true):
            // Cancelled after the operation's start, before `execute()` got here: no attempt.
            phase = .finished(made: 0)
            return .finish(first)
        case .making, .running, .deciding, .due, .waiting, .finished:
            fatalError("start in phase \(phase): the attempts had started")
        }
    }

    /// The next attempt is due at once (after ``DecidedAction/startNow``).
    package mutating func nextDue() -> StartAction {
        switch phase {
        case .due(let number, let carried, cancelled: false):
            // The wait was none.
            phase = .making(number: number + 1, cancelled: false)
            return .make(number: number + 1, carried)
        case .due(let number, let carried, cancelled: true):
            // Cancelled before it started: the operation ends with what the last attempt left.
            phase = .finished(made: number)
            return .finish(carried)
        case .idle, .making, .running, .deciding, .waiting, .finished:
            fatalError("nextDue in phase \(phase): no attempt was due")
        }
    }

    /// The back-off's timer fired.
    package mutating func timerFired() -> StartAction {
        switch phase {
        case .waiting(_?, let number, let carried):
            // The wait is over.
            phase = .making(number: number + 1, cancelled: false)
            return .make(number: number + 1, carried)
        case .finished:
            // A cancel ended the wait, and finished the operation, before the timer fired.
            return .none
        case .idle, .making, .running, .deciding, .due, .waiting(nil, _, _):
            fatalError("timerFired in phase \(phase): no timer was set")
        }
    }

    package enum MadeAction {
        case run
        /// Cancelled while it was made: cancel it, then run it (it finishes at once, or as it
        /// must).
        case runCancelled
        /// None was made (a repeat's `makeIteration` returned `nil`): finish with what the last
        /// attempt left.
        case finish
    }

    /// The attempt being made was made, or turned out to be none (`nil`).
    package mutating func attemptMade(_ attempt: Attempt?) -> MadeAction {
        switch phase {
        case .making(let number, let cancelled):
            guard let attempt else {
                // Nothing more to run.
                phase = .finished(made: number - 1)
                return .finish
            }
            // Running from now on: a cancel reaches it.
            phase = .running(attempt, number: number, cancelled: cancelled)
            return cancelled ? .runCancelled : .run
        case .idle, .running, .deciding, .due, .waiting, .finished:
            fatalError("attemptMade in phase \(phase): no attempt was being made")
        }
    }

    // MARK: Cancelling

    package enum CancelAction {
        /// What comes next sees the cancel; or it is over.
        case none
        /// Cancel the running attempt: its end finishes the operation.
        case cancelAttempt(Attempt)
        /// End the back-off at once: cancel the timer (if made) and finish with what the last
        /// attempt left.
        case endWait(Timer?, Carried)
    }

    /// The operation's cancel, in the cancel's own trip: only the first, before finishing began
    /// (the operation's machine tells it once).
    package mutating func cancel() -> CancelAction {
        switch phase {
        case .idle(let first, cancelled: false):
            // `execute()` finishes at once.
            phase = .idle(first, cancelled: true)
            return .none
        case .making(let number, cancelled: false):
            // The attempt being made is cancelled once made.
            phase = .making(number: number, cancelled: true)
            return .none
        case .running(let attempt, let number, cancelled: false):
            // The attempt finishes cancelled; its end finishes the operation.
            phase = .running(attempt, number: number, cancelled: true)
            return .cancelAttempt(attempt)
        case .deciding(let number, let carried, cancelled: false):
            // The wait being chosen is not waited.
            phase = .deciding(number: number, carried, cancelled: true)
            return .none
        case .due(let number, let carried, cancelled: false):
            // The attempt due starts not.
            phase = .due(number: number, carried, cancelled: true)
            return .none
        case .waiting(let timer, let number, let carried):
            // No attempt runs: finish now.
            phase = .finished(made: number)
            return .endWait(timer, carried)
        case .finished:
            // The operation finishes, or finished, with what the last attempt did.
            return .none
        case .idle(_, cancelled: true), .making(_, cancelled: true), .running(_, _, cancelled: true),
            .deciding(_, _, cancelled: true), .due(_, _, cancelled: true):
            fatalError("cancel in phase \(phase): the operation was cancelled once already")
        }
    }

    // MARK: An attempt's end

    /// What an ended attempt means, as the operation judges it, outside the lock.
    package enum Verdict {
        /// It ends the operation, whatever comes (a retry's success, a repeat's failure), with
        /// these errors.
        case stop([any Error])
        /// Another may follow, given what this one left (a retry's errors, a repeat's output).
        case goOn(Carried)
    }

    package enum EndAction {
        /// Finish with the attempt's own outcome and these errors.
        case finishWithAttempt([any Error])
        /// Cancelled: finish with what the attempt left.
        case finish(Carried)
        /// Choose the wait after attempt `number` (user code, unlocked), given what it left, and
        /// report it with ``delayChosen(_:)``.
        case decide(afterAttempt: Int, Carried)
    }

    /// The running attempt is finished, with this verdict.
    package mutating func attemptEnded(_ verdict: Verdict) -> EndAction {
        switch (phase, verdict) {
        case (.running(_, let number, _), .stop(let errors)):
            // Its outcome is the operation's, cancelled or not.
            phase = .finished(made: number)
            return .finishWithAttempt(errors)
        case (.running(_, let number, cancelled: true), .goOn(let carried)):
            // No other starts after a cancel.
            phase = .finished(made: number)
            return .finish(carried)
        case (.running(_, let number, cancelled: false), .goOn(let carried)):
            // Another may follow, after a wait the operation chooses.
            phase = .deciding(number: number, carried, cancelled: false)
            return .decide(afterAttempt: number, carried)
        case (.idle, _), (.making, _), (.deciding, _), (.due, _), (.waiting, _), (.finished, _):
            fatalError("attemptEnded in phase \(phase): no attempt was running")
        }
    }

    package enum DecidedAction {
        /// No other: finish with what the last attempt left.
        case finish(Carried)
        /// Start the next attempt now, not on this stack (report it with ``nextDue()``).
        case startNow
        /// Make a timer for this many seconds, report it with ``timerMade(_:)``, and start the
        /// next attempt when it fires (``timerFired()``).
        case wait(TimeInterval)
    }

    /// The wait before the next attempt was chosen: `nil` for none (out of attempts, `shouldRetry`
    /// said no, or the back-off or interval gave up).
    package mutating func delayChosen(_ delay: TimeInterval?) -> DecidedAction {
        switch phase {
        case .deciding(let number, let carried, let cancelled):
            guard !cancelled, let delay else {
                // Cancelled meanwhile, or no other attempt.
                phase = .finished(made: number)
                return .finish(carried)
            }
            guard delay > 0 else {
                // At once.
                phase = .due(number: number, carried, cancelled: false)
                return .startNow
            }
            // After the back-off.
            phase = .waiting(nil, number: number, carried)
            return .wait(delay)
        case .idle, .making, .running, .due, .waiting, .finished:
            fatalError("delayChosen in phase \(phase): no wait was being chosen")
        }
    }

    package enum TimerMadeAction {
        /// Resume it, once unlocked.
        case resume
        /// A cancel ended the wait meanwhile: cancel it and resume it, so that it can be released.
        case discard
    }

    package mutating func timerMade(_ timer: Timer) -> TimerMadeAction {
        switch phase {
        case .waiting(nil, let number, let carried):
            // Its firing starts the next attempt.
            phase = .waiting(timer, number: number, carried)
            return .resume
        case .finished:
            // Cancelled while it was made.
            return .discard
        case .idle, .making, .running, .deciding, .due, .waiting(_?, _, _):
            fatalError("timerMade in phase \(phase): no back-off was waiting for a timer")
        }
    }
}

// Compared whole, and given as test arguments, by the table tests.
extension AttemptStateMachine.Phase: Sendable where Attempt: Sendable, Timer: Sendable, Carried: Sendable {}
extension AttemptStateMachine.StartAction: Sendable where Carried: Sendable {}
extension AttemptStateMachine.MadeAction: Sendable {}
extension AttemptStateMachine.CancelAction: Sendable
where Attempt: Sendable, Timer: Sendable, Carried: Sendable {}
extension AttemptStateMachine.DecidedAction: Sendable where Carried: Sendable {}
extension AttemptStateMachine.TimerMadeAction: Sendable {}
extension AttemptStateMachine.Phase: Equatable
where Attempt: Equatable, Timer: Equatable, Carried: Equatable {}
extension AttemptStateMachine.StartAction: Equatable where Carried: Equatable {}
extension AttemptStateMachine.MadeAction: Equatable {}
extension AttemptStateMachine.CancelAction: Equatable
where Attempt: Equatable, Timer: Equatable, Carried: Equatable {}
extension AttemptStateMachine.DecidedAction: Equatable where Carried: Equatable {}
extension AttemptStateMachine.TimerMadeAction: Equatable {}
