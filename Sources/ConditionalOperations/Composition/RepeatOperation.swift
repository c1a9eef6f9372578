import Dispatch
import Foundation

/// Runs the operations `makeIteration` makes, one at a time, for polling and periodic work (S20).
///
/// ```swift
/// let poll = RepeatOperation(maximumCount: 10, interval: .constant(.seconds(5))) { iteration in
///     iteration == 1 || !jobIsDone() ? CheckJobOperation() : nil  // a ResultOperation<JobStatus>
/// }
/// ```
///
/// To stop on what the last iteration returned, take its output too
/// (``init(maximumCount:interval:makeIteration:)-(_,_,(Int,Output?)->ResultOperation<Output>?)``).
///
/// - It runs `makeIteration(1)`, `makeIteration(2)`, … each once the one before finished, waiting
///   `interval` between them (``RetryBackoff``, given the number of the iteration that finished and
///   no errors), holding no thread.
/// - It stops when `makeIteration` returns `nil`, after `maximumCount` iterations, when the
///   interval answers `nil`, at the first failed iteration (it finishes with that iteration's
///   errors), or when cancelled: it cancels the running iteration and finishes after it (S5), or
///   ends its wait at once.
/// - Its output is the last iteration's output. With no iteration at all it finishes without a
///   value, as any ``ResultOperation`` that did not produce one (``ResultOperation/value`` then
///   throws a descriptive error), unless its `Output` is `Void`: then it returns `()` (S23).
/// - The iterations run on the queue that runs the repeat operation (on a queue that runs one
///   operation at a time they would wait for it: there, and without a queue, on one of the
///   library's). Observers of the repeat operation see one operation; an iteration may need an
///   exclusivity category the repeat operation holds (S7).
open class RepeatOperation<Output: Sendable>: ResultOperation<Output>, @unchecked Sendable {
    // mutable state: `iterations`, behind its lock
    private struct State {
        var machine = AttemptStateMachine<ConditionalOperation, any DispatchSourceTimer>()
        var started = 0
        var lastOutput: Output?
        var queue: OperationQueue?
    }

    /// The iterations, under one lock.
    private let iterations = Locked(State())
    private let maximumCount: Int
    private let interval: RetryBackoff
    private let makeIteration: @Sendable (_ iteration: Int, _ previous: Output?) -> ResultOperation<Output>?

    /// Repeats the operations `makeIteration` makes, given the iteration's number (from 1).
    ///
    /// - Parameters:
    ///   - maximumCount: iterations in all, at most; `nil` (the default): until `makeIteration`
    ///     returns `nil`, an iteration fails, or the operation is cancelled.
    ///   - interval: the wait after an iteration before the next one. Default: none.
    ///   - makeIteration: a new operation for each iteration, not enqueued anywhere, or `nil` to stop.
    public init(
        maximumCount: Int? = nil, interval: RetryBackoff = .immediate,
        makeIteration: @escaping @Sendable (_ iteration: Int) -> ResultOperation<Output>?
    ) {
        self.maximumCount = max(0, maximumCount ?? .max)
        self.interval = interval
        self.makeIteration = { iteration, _ in makeIteration(iteration) }
        super.init()
    }

    /// Repeats the operations `makeIteration` makes, given the iteration's number (from 1) and
    /// the output of the iteration before (`nil` for the first), so that it can stop on what the
    /// last iteration returned (S20).
    ///
    /// ```swift
    /// let poll = RepeatOperation<JobStatus>(interval: .constant(.seconds(5))) { _, previous in
    ///     previous == .done ? nil : CheckJobOperation()  // a ResultOperation<JobStatus>
    /// }
    /// ```
    ///
    /// Spell `Output` (`RepeatOperation<JobStatus>`), or the closure's return type: from a closure
    /// of several statements that returns `nil` somewhere, Swift cannot infer it.
    ///
    /// - Parameters:
    ///   - maximumCount: iterations in all, at most; `nil` (the default): until `makeIteration`
    ///     returns `nil`, an iteration fails, or the operation is cancelled.
    ///   - interval: the wait after an iteration before the next one. Default: none.
    ///   - makeIteration: a new operation for each iteration, not enqueued anywhere, or `nil` to
    ///     stop; `previous` is the output of the iteration that finished last.
    public convenience init(
        maximumCount: Int? = nil, interval: RetryBackoff = .immediate,
        makeIteration: @escaping @Sendable (_ iteration: Int, _ previous: Output?) -> ResultOperation<Output>?
    ) {
        self.init(maximumCount: maximumCount, interval: interval, makeNext: makeIteration)
    }

    private init(
        maximumCount: Int?, interval: RetryBackoff,
        makeNext: @escaping @Sendable (_ iteration: Int, _ previous: Output?) -> ResultOperation<Output>?
    ) {
        self.maximumCount = max(0, maximumCount ?? .max)
        self.interval = interval
        self.makeIteration = makeNext
        super.init()
    }

    /// The number of iterations started so far.
    public var iterationCount: Int { iterations.withLock { $0.started } }

    // MARK: Running

    /// Starts the first iteration.
    open override func execute() {
        let queue = LibraryQueue.forAttempts(on: ConditionalOperationQueue.current)
        iterations.withLock { $0.queue = queue }
        startIteration(afterWait: false)
    }

    /// `false`: a cancelled repeat operation finishes once its running iteration finished.
    public final override var finishesWhenCancelled: Bool { false }

    /// Cancels the repeat operation and its running iteration, or ends its wait.
    open override func cancel() {
        super.cancel()
        guard isCancelled else { return }  // finishing had begun
        switch iterations.withLock({ $0.machine.cancel() }) {
        case .none:
            break
        case .cancelAttempt(let iteration):
            iteration.cancel()
        case .endWait(let timer, _):
            timer?.cancel()
            finishWithLastOutput()
        }
    }

    private func startIteration(afterWait: Bool) {
        // The previous output is read in the same trip: the iterations run one at a time, so it is
        // the last one; makeIteration (user code) then runs outside the lock.
        let (action, previous) = iterations.withLock { state in
            (state.machine.startAttempt(afterBackoff: afterWait), state.lastOutput)
        }
        switch action {
        case .none:
            return
        case .finish:
            finishWithLastOutput()
        case .make(let number):
            guard number <= maximumCount, let iteration = makeIteration(number, previous) else {
                iterations.withLock { $0.machine.noAttemptMade() }
                return finishWithLastOutput()
            }
            iteration.adoptParent(self)
            let (made, queue) = iterations.withLock { state in
                state.started += 1
                return (state.machine.attemptMade(iteration), state.queue ?? LibraryQueue.shared)
            }
            // Once the iteration is completely finished (`isFinished` flipped), so that the repeat
            // operation's dependents never start beside its end (S25). Holds the repeat operation.
            iteration.whenFinished {
                self.iterationFinished(iteration, number: number, errors: iteration.errors)
            }
            if case .runCancelled = made { iteration.cancel() }
            queue.addOperation(iteration)
        }
    }

    /// Iteration number `number` finished with `errors`: stop at a failure, else go on after the
    /// interval.
    private func iterationFinished(_ iteration: ResultOperation<Output>, number: Int, errors: [any Error]) {
        let failure: [any Error]? =
            switch iteration.result {
            case _ where !errors.isEmpty: errors
            case .failure(let error)?: [error]
            case .success, nil: iteration.isCancelled ? [] : nil
            }
        if let failure {
            iterations.withLock { state in
                state.machine.finishAfterAttempt()
                state.queue = nil  // S12: a finished repeat holds no queue
            }
            if failure.isEmpty && !isCancelled { cancel() }  // an iteration cancelled by someone else
            return finish(errors: failure)
        }
        if case .success(let output)? = iteration.result {
            iterations.withLock { $0.lastOutput = output }
        }
        // User code (the interval) runs outside the lock.
        var delay: TimeInterval?
        if number < maximumCount, !iterations.withLock({ $0.machine.isCancelled }) {
            delay = interval.delay(afterAttempt: number, errors: [])
        }
        let qos = qualityOfService
        switch iterations.withLock({ $0.machine.attemptEnded(errors: [], nextAfter: delay) }) {
        case .finish:
            finishWithLastOutput()
        case .retryNow:
            // Not on this stack: iterations that finish synchronously would nest ever deeper.
            DispatchQueue.global(qos: qos.dispatchQoSClass).async { self.startIteration(afterWait: false) }
        case .wait(let delay):
            let timer = OneShotTimer.make(at: .after(delay), qualityOfService: qos) { [weak self] in
                self?.startIteration(afterWait: true)
            }
            if case .discard = iterations.withLock({ $0.machine.timerMade(timer) }) { timer.cancel() }
            timer.resume()
        }
    }

    /// Finishes with the last iteration's output, if there was one.
    private func finishWithLastOutput() {
        let output = iterations.withLock { state in
            state.queue = nil  // S12: a finished repeat holds no queue
            return state.lastOutput
        }
        if let output { finish(returning: output) } else { finish() }
    }
}
