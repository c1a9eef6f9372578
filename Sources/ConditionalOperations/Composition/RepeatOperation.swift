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
/// - The iterations run in its own place, as a ``RetryOperation``'s attempts do: never waiting for
///   a slot of the queue or group that runs it, never a child of an enclosing group (S32).
///   Observers, the queue's delegate and an enclosing group see one operation; an iteration may
///   need an exclusivity category the repeat operation holds (S7).
open class RepeatOperation<Output: Sendable>: ResultOperation<Output>, AttemptRunning, @unchecked Sendable {
    // mutable state: `lockedAttempts`, `lockedQueue` and `lockedTimeline`, behind the operation's own lock (`withOwnLock`)
    /// What an ended attempt leaves for the next: an iteration leaves its output.
    typealias Carried = Output?
    /// The iterations, each leaving its output. Only reached under the operation's own lock,
    /// which makes every access exclusive.
    @exclusivity(unchecked) var lockedAttempts = Attempts(first: nil)
    /// The queue that runs the repeat operation, whose shutdown reaches the iterations; weak, so
    /// that a finished repeat operation holds no queue (S12).
    @exclusivity(unchecked) weak var lockedQueue: OperationQueue?
    /// Where the attempts are recorded, once the operation was (an ``OperationTimeline``).
    @exclusivity(unchecked) var lockedTimeline: TimelineParent?
    private let maximumCount: Int
    private let interval: RetryBackoff
    private let makeIteration: @Sendable (_ iteration: Int, _ previous: Output?) -> ResultOperation<Output>?

    /// Repeats the operations `makeIteration` makes, given the iteration's number (from 1).
    ///
    /// - Parameters:
    ///   - maximumCount: iterations in all, at most, not negative (that stops the program, naming
    ///     the value); `nil` (the default): until `makeIteration` returns `nil`, an iteration
    ///     fails, or the operation is cancelled.
    ///   - interval: the wait after an iteration before the next one. Default: none.
    ///   - makeIteration: a new operation for each iteration, not enqueued anywhere, or `nil` to stop.
    public init(
        maximumCount: Int? = nil, interval: RetryBackoff = .immediate,
        makeIteration: @escaping @Sendable (_ iteration: Int) -> ResultOperation<Output>?
    ) {
        ValueCheck.require(
            ValueCheck.iterations(
                maximumCount ?? 0, call: "RepeatOperation(maximumCount: \(maximumCount ?? 0))"))
        self.maximumCount = maximumCount ?? .max
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
    ///   - maximumCount: iterations in all, at most, not negative (that stops the program, naming
    ///     the value); `nil` (the default): until `makeIteration` returns `nil`, an iteration
    ///     fails, or the operation is cancelled.
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
        ValueCheck.require(
            ValueCheck.iterations(
                maximumCount ?? 0, call: "RepeatOperation(maximumCount: \(maximumCount ?? 0))"))
        self.maximumCount = maximumCount ?? .max
        self.interval = interval
        self.makeIteration = makeNext
        super.init()
    }

    /// The number of iterations started so far.
    public var iterationCount: Int { withOwnLock { lockedAttempts.made } }

    // MARK: Running

    /// Recorded in a timeline: its iterations are recorded under it.
    override func recordInnerOperations(in parent: TimelineParent) {
        withOwnLock { lockedTimeline = parent }
    }

    /// Starts the first iteration.
    open override func execute() {
        startAttempts()
    }

    /// `false`: a cancelled repeat operation finishes once its running iteration finished.
    public final override var finishesWhenCancelled: Bool { false }

    /// Cancels the repeat operation and its running iteration, or ends its wait.
    open override func cancel() {
        cancelAttempts()
    }

    // MARK: Iterations (AttemptRunning)

    func makeAttempt(_ number: Int, previous: Output?) -> ConditionalOperation? {
        guard number <= maximumCount else { return nil }
        return makeIteration(number, previous)
    }

    /// A failure (errors, a failed result, or cancelled) ends the repeat; a success leaves its
    /// output (or the one before, if it returned none).
    func verdict(on attempt: ConditionalOperation, previous: Output?) -> Attempts.Verdict {
        let iteration = unsafeDowncast(attempt, to: ResultOperation<Output>.self)
        let errors = iteration.errors
        switch iteration.result {
        case _ where !errors.isEmpty: return .stop(errors)
        case .failure(let error)?: return .stop([error])
        case .success(let output)?: return .goOn(output)
        case nil: return iteration.isCancelled ? .stop([]) : .goOn(previous)
        }
    }

    /// User code (the interval), run outside the lock.
    func delay(afterAttempt number: Int, leaving _: Output?) -> TimeInterval? {
        guard number < maximumCount else { return nil }
        return interval.delay(afterAttempt: number, errors: [])
    }

    /// The failed iteration's errors; one cancelled by someone else ends the repeat operation
    /// cancelled too.
    func finish(endingWith _: ConditionalOperation, errors: [any Error]) {
        if errors.isEmpty && !isCancelled { cancel() }
        finish(errors: errors)
    }

    /// The last iteration's output, if there was one.
    func finish(leaving output: Output?) {
        if let output { finish(returning: output) } else { finish() }
    }
}
