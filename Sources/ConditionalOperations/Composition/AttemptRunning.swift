import ConditionalOperationsMachines
import Dispatch
import Foundation

/// An operation that runs attempts one at a time (``RetryOperation``, ``RepeatOperation``), and
/// the one runner they share: it keeps their ``AttemptStateMachine`` under the operation's own
/// lock, performs its actions once unlocked, and runs the user's code (making an attempt,
/// choosing a wait) outside every lock.
///
/// - An attempt's end is learnt once it is completely finished (its `isFinished` is `true`), so
///   that the operation, which finishes after its last attempt, never lets a dependent start
///   beside that attempt's end (S25).
/// - The operation's cancel reaches the machine in the cancel's own trip through the lock
///   (`cancel(recording:)`): an attempt that ends right after a cancel starts no other, and asks
///   no user code whether to.
/// - The attempts run on a queue of the library's without a limit (`LibraryQueue.attempts`), never
///   on the queue or group that runs the operation: there they would wait for a slot the
///   operation holds, and be taken for a group's children or reported to a delegate (S32).
/// - The queue that runs the operation is held weakly, to learn whether it was shut down: a
///   finished operation holds no queue (S12); an attempt made once it was shut down is cancelled
///   with ``OperationError/queueShutDown`` (S21).
protocol AttemptRunning: ConditionalOperation {
    /// What an ended attempt leaves for the next one and for the operation's finish.
    associatedtype Carried: Sendable
    typealias Attempts = AttemptStateMachine<ConditionalOperation, any DispatchSourceTimer, Carried>

    /// The attempts: only reached under the operation's own lock (`withOwnLock`).
    var lockedAttempts: Attempts { get set }
    /// The queue that runs the operation, whose shutdown reaches the attempts: only reached under
    /// the operation's own lock; weak.
    var lockedQueue: OperationQueue? { get set }
    /// Where its attempts are recorded, once it was (``OperationTimeline``): only reached under
    /// the operation's own lock.
    var lockedTimeline: TimelineParent? { get set }

    /// Attempt `number` (from 1), given what the last one left; `nil` for none (the operation
    /// then finishes with `previous`). User code.
    func makeAttempt(_ number: Int, previous: Carried) -> ConditionalOperation?
    /// What `attempt`, finished, means; `previous` is what the one before it left.
    func verdict(on attempt: ConditionalOperation, previous: Carried) -> Attempts.Verdict
    /// The wait after attempt `number`, which left `carried`, before the next; `nil` for no
    /// other. User code.
    func delay(afterAttempt number: Int, leaving carried: Carried) -> TimeInterval?
    /// Finishes with the outcome of `attempt`, which ended the operation with `errors`.
    func finish(endingWith attempt: ConditionalOperation, errors: [any Error])
    /// Finishes with what the last attempt left.
    func finish(leaving carried: Carried)
}

extension AttemptRunning {
    /// `execute()`: starts the first attempt.
    func startAttempts() {
        let queue = ConditionalOperationQueue.current
        let action = withOwnLock { () -> Attempts.StartAction in
            lockedQueue = queue
            return lockedAttempts.start()
        }
        perform(action)
    }

    /// `cancel()`: cancels the operation and, in the same trip through its lock, its attempts;
    /// then the running attempt, or ends the wait.
    func cancelAttempts() {
        let action = cancel(recording: { counts in counts ? lockedAttempts.cancel() : .none })
        switch action {
        case .none:
            break
        case .cancelAttempt(let attempt):
            attempt.cancel()
        case .endWait(let timer, let carried):
            timer?.cancel()
            finish(leaving: carried)
        }
    }

    private func perform(_ action: Attempts.StartAction) {
        switch action {
        case .none:
            return
        case .finish(let carried):
            finish(leaving: carried)
        case .make(let number, let previous):
            let attempt = makeAttempt(number, previous: previous)
            attempt?.adoptParent(self)
            let (made, queue, timeline) = withOwnLock {
                (lockedAttempts.attemptMade(attempt), lockedQueue, lockedTimeline)
            }
            // None made (`made` is `.finish`): the operation ends with what the last one left.
            guard let attempt else { return finish(leaving: previous) }
            // Once the attempt is completely finished (S25). Holds the operation: it lives at
            // least as long as its running attempt.
            attempt.whenFinished { self.attemptFinished(attempt, previous: previous) }
            if case .runCancelled = made { attempt.cancel() }
            if (queue as? ConditionalOperationQueue)?.isShutDown == true {
                attempt.cancel(with: OperationError.queueShutDown)
            }
            timeline?.record(attempt)
            LibraryQueue.attempts.addOperation(attempt)
        }
    }

    private func attemptFinished(_ attempt: ConditionalOperation, previous: Carried) {
        let verdict = verdict(on: attempt, previous: previous)
        switch withOwnLock({ lockedAttempts.attemptEnded(verdict) }) {
        case .finishWithAttempt(let errors):
            finish(endingWith: attempt, errors: errors)
        case .finish(let carried):
            finish(leaving: carried)
        case .decide(let number, let carried):
            decide(afterAttempt: number, leaving: carried)
        }
    }

    private func decide(afterAttempt number: Int, leaving carried: Carried) {
        let delay = delay(afterAttempt: number, leaving: carried)
        ValueCheck.require(
            delay.flatMap {
                ValueCheck.interval($0, call: "\(diagnosticName): the wait after attempt \(number)")
            })
        let qos = qualityOfService
        switch withOwnLock({ lockedAttempts.delayChosen(delay) }) {
        case .finish(let carried):
            finish(leaving: carried)
        case .startNow:
            // Not on this stack: attempts that finish synchronously would nest ever deeper.
            DispatchQueue.global(qos: qos.dispatchQoSClass).async {
                self.perform(self.withOwnLock { self.lockedAttempts.nextDue() })
            }
        case .wait(let delay):
            // Made and resumed outside the lock; this reference keeps it alive until resumed, so a
            // cancel meanwhile never releases a suspended timer.
            let timer = OneShotTimer.make(at: .after(delay), qualityOfService: qos) { [weak self] in
                guard let self else { return }
                perform(withOwnLock { lockedAttempts.timerFired() })
            }
            if case .discard = withOwnLock({ lockedAttempts.timerMade(timer) }) { timer.cancel() }
            timer.resume()
        }
    }
}

extension AttemptRunning {
    /// What the operation waits for while it executes: its running attempt (and what that one
    /// waits for), or the wait before the next; `nil` before the first and once no other starts.
    var attemptReason: OperationDiagnosis.Reason? {
        let attempt: (Int, ConditionalOperation?)? =
            withOwnLock {
                switch lockedAttempts.phase {
                case .running(let attempt, let number, _): (number, attempt)
                case .deciding(let number, _, _), .due(let number, _, _), .waiting(_, let number, _):
                    (number, nil)
                case .idle, .making, .finished: nil
                }
            }
        guard let (number, running) = attempt else { return nil }
        // Read unlocked: the attempt's diagnosis takes its own lock and reads user names.
        guard let running else { return .betweenAttempts(after: number) }
        return .attempt(number, running.diagnosis)
    }
}
