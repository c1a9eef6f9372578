import Foundation

/// An operation whose work is an `async` function (S15), with a value of type `Output`.
///
/// Give it the work as a closure, or subclass it and override ``run()``. The work runs in a `Task`
/// started when the operation executes, with the operation's priority; its value finishes the
/// operation, a thrown error fails it. Conditions, observers, dependencies and queues work as for
/// any ``ConditionalOperation``.
///
/// ```swift
/// let fetch = AsyncOperation(name: "fetch") { try await api.users() }
/// fetch.addCondition(MutuallyExclusive(category: "network"))
/// let users = try await queue.run(fetch)
/// ```
///
/// Cancelling the operation cancels the task; the operation finishes once ``run()`` returned or
/// threw (``finishesWhenCancelled`` is `false`), so dependents never overlap its work. A
/// `CancellationError` thrown after the cancel adds no error of its own.
///
/// Foundation's blocking `waitUntilFinished()` is unavailable here, so that
/// `await operation.waitUntilFinished()` picks the asynchronous one, top-level code included;
/// ``ConditionalOperation/untilFinished()`` waits the same way on any operation.
open class AsyncOperation<Output: Sendable>: ResultOperation<Output>, @unchecked Sendable {
    // mutable state: `lockedTask`, behind the operation's own lock (`withOwnLock`)
    private let work: (@Sendable () async throws -> Output)?
    /// The task running ``run()``, while it runs: a cancel cancels it. Only reached under the
    /// operation's own lock, which makes every access exclusive.
    @exclusivity(unchecked) private var lockedTask = StartedWork<Task<Void, Never>>.notStarted
    /// The task `queue.run` made in its caller (S22), waiting for `execute()`.
    @exclusivity(unchecked) private var lockedGate = ExecuteGate.none

    /// Creates an operation named `name` whose work is `work`.
    public init(name: String? = nil, _ work: @escaping @Sendable () async throws -> Output) {
        self.work = work
        super.init()
        if let name { self.name = name }
    }

    /// Creates an operation for a subclass that overrides ``run()``.
    public override init() {
        work = nil
        super.init()
    }

    /// The work. The default runs the closure given to ``init(name:_:)``; a subclass overrides it.
    open func run() async throws -> Output {
        guard let work else {
            Misuse.trap(
                "\(diagnosticName): an AsyncOperation made with init() must override run() "
                    + "(S15: the work is run(), or the closure of init(name:_:))")
        }
        return try await work()
    }

    /// `false`: a cancelled operation finishes once ``run()`` returned or threw (S15).
    public final override var finishesWhenCancelled: Bool { false }

    /// Starts ``run()`` in a task. Override ``run()`` instead.
    public final override func execute() {
        switch withOwnLock({ lockedGate.open(executing: true) }) {
        case .resume(let waiter):
            return waiter.resume(returning: true)  // the task `queue.run` made runs it (S22)
        case .recorded:
            return  // that task runs it once it reaches its wait
        case .noTask:
            break
        }
        let task = Task(priority: qualityOfService.taskPriority) { [self] in await runAndFinish() }
        if withOwnLock({ lockedTask.start(task) }) { task.cancel() }
    }

    /// Runs ``run()`` and finishes with what it returned or threw.
    private func runAndFinish() async {
        // No `Result<Output, any Error>` in between: its metadata is looked up at run time.
        do {
            let output = try await RunningOperation.$current.withValue(self) { try await run() }
            finish(returning: output, recording: takeTask)
        } catch is CancellationError where isCancelled {
            finish(errors: [], recording: takeTask)  // the cancel's errors tell why
        } catch {
            finish(errors: [error], recording: takeTask)
        }
    }

    /// Takes the task out once ``run()`` ended, in the finish's trip through the lock. The caller
    /// drops it once unlocked: a finished task's memory is freed once nothing refers to it.
    private func takeTask(earlierFinishWon _: Bool) -> StartedWork<Task<Void, Never>> {
        lockedTask.end()
    }

    /// Cancels the operation and the task running ``run()``.
    ///
    /// The task is taken (or, before it is made, the cancel is recorded for it) in the cancel's
    /// own trip through the lock, and cancelled once unlocked.
    open override func cancel() {
        cancel(recording: { _ in lockedTask.cancel() })?.cancel()
    }

    /// S22: the task running ``run()`` is made here, in `queue.run`'s caller, as a `Task {}` made
    /// there would be: with its task-local values and its priority. It waits, holding no thread,
    /// until the operation executes; if it finishes without executing, the task ends once `queue.run`
    /// saw it finish.
    override func prepareTaskInCallersContext() {
        let isFirst = withOwnLock { () -> Bool in
            guard case .notStarted = lockedTask, case .none = lockedGate else { return false }
            lockedGate = .closed
            return true
        }
        guard isFirst else { return }  // added twice, or started already: it runs as S15 says
        let task = Task { [self] in
            guard await waitForExecute() else { return }
            await runAndFinish()
        }
        if withOwnLock({ lockedTask.start(task) }) { task.cancel() }  // a cancel came first (S4)
    }

    /// S22: `queue.run`'s caller saw the operation finish; if it finished without executing, the
    /// task made for it ends now.
    override func endTaskInCallersContext() {
        if case .resume(let waiter) = withOwnLock({ lockedGate.open(executing: false) }) {
            waiter.resume(returning: false)
        }
    }

    /// Whether the operation executes, once it is known.
    private func waitForExecute() async -> Bool {
        await withUnsafeContinuation { continuation in
            if let executing = withOwnLock({ lockedGate.wait(continuation) }) {
                continuation.resume(returning: executing)
            }
        }
    }

    /// Unavailable: `await untilFinished()` waits without blocking a thread.
    @available(*, unavailable, message: "use 'await operation.untilFinished()', which holds no thread")
    public override func waitUntilFinished() {
        super.waitUntilFinished()
    }
}
