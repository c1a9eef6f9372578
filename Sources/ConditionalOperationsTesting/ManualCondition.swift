import ConditionalOperations
import Foundation

/// A condition the test answers by hand, when it decides: to check what an operation does while
/// its conditions are evaluated, and what it does with each answer, without timing anything.
///
/// ```swift
/// let signedIn = ManualCondition(name: "signed in")
/// upload.addCondition(signedIn)
/// queue.addOperation(upload)
/// try await signedIn.waitUntilEvaluated(timeout: .seconds(5))
/// #expect(upload.state == .evaluatingConditions)
/// signedIn.answer(.failed(SessionError.expired))
/// try await upload.untilFinished(timeout: .seconds(5))
/// #expect(upload.errors.count == 1)
/// ```
///
/// It answers each evaluation exactly once, as a condition must. Safe to use from any thread.
public final class ManualCondition: OperationCondition, @unchecked Sendable {  // stored vars: under `lock`
    private let lock = NSLock()
    private var result: OperationConditionResult?
    private var unanswered: [@Sendable (OperationConditionResult) -> Void] = []
    private var asked = 0
    /// The tasks in ``waitUntilEvaluated(timeout:)-(Duration)``, by number; `nil` until a task's continuation is made.
    private var waiters: [Int: CheckedContinuation<Void, Never>?] = [:]
    private var nextWaiter = 0

    /// The name diagnoses, logs and ``WaitTimeoutError`` show for it.
    ///
    /// ```swift
    /// #expect(upload.diagnosis.description.contains("not answered: signed in"))
    /// ```
    public let name: String

    /// A condition that answers nothing until ``answer(_:)`` is called.
    ///
    /// ```swift
    /// let condition = ManualCondition(name: "reachable")
    /// ```
    public init(name: String = "ManualCondition") {
        self.name = name
    }

    /// How many times an operation asked it to evaluate so far.
    ///
    /// ```swift
    /// #expect(condition.evaluationCount == 1, "asked once, not again after the dependency finished")
    /// ```
    public var evaluationCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return asked
    }

    /// Gives `result` to every evaluation waiting for an answer, and to every later one until the
    /// next call: an answer given before the operation asks is not lost.
    ///
    /// ```swift
    /// condition.answer(.satisfied)
    /// condition.answer(.failed(CocoaError(.userCancelled)))  // for evaluations asked from now on
    /// ```
    ///
    /// An evaluation already answered is not answered again. The operation gets the answer on
    /// the calling thread, outside the condition's lock.
    public func answer(_ result: OperationConditionResult) {
        lock.lock()
        self.result = result
        let waiting = unanswered
        unanswered = []
        lock.unlock()
        for completion in waiting { completion(result) }
    }

    /// Returns once an operation asked it to evaluate (at once if one did already), or throws a
    /// ``WaitTimeoutError`` once `timeout` passed first.
    ///
    /// ```swift
    /// queue.addOperation(operation)
    /// try await condition.waitUntilEvaluated(timeout: .seconds(5))
    /// #expect(operation.state == .evaluatingConditions)
    /// ```
    ///
    /// It holds no thread and, timed out or cancelled, leaves no waiter or timer behind.
    /// Cancelling the calling task throws `CancellationError`.
    public func waitUntilEvaluated(timeout: Duration) async throws {
        try await waitUntilEvaluated(seconds: timeout.seconds)
    }

    /// ``waitUntilEvaluated(timeout:)-(Duration)``, with the timeout in seconds.
    @available(*, deprecated, message: "pass a Duration: waitUntilEvaluated(timeout: .seconds(n))")
    public func waitUntilEvaluated(timeout seconds: TimeInterval) async throws {
        try await waitUntilEvaluated(seconds: seconds)
    }

    private func waitUntilEvaluated(seconds: TimeInterval) async throws {
        let outcome = try await race({ await self.untilAsked() }, seconds: seconds)
        if case .timedOut = outcome {
            throw WaitTimeoutError(awaited: .evaluation, subject: name, timeout: seconds, diagnosis: nil)
        }
    }

    /// Part of `OperationCondition`: keeps `completion` until ``answer(_:)``, or answers at once
    /// with the answer already given.
    ///
    /// ```swift
    /// condition.evaluate(for: operation) { result in print(result) }  // what the library does
    /// ```
    public func evaluate(
        for operation: ConditionalOperation,
        completion: @escaping @Sendable (OperationConditionResult) -> Void
    ) {
        lock.lock()
        asked += 1
        let answer = result
        if answer == nil { unanswered.append(completion) }
        let woken = waiters.values.compactMap { $0 }
        waiters = [:]
        lock.unlock()
        for waiter in woken { waiter.resume() }
        if let answer { completion(answer) }
    }

    /// Suspends until the condition was asked, or until the calling task is cancelled.
    private func untilAsked() async {
        guard let id = addWaiter() else { return }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                lock.lock()
                let over = waiters.index(forKey: id) == nil
                if !over { waiters[id] = continuation }
                lock.unlock()
                if over { continuation.resume() }
            }
        } onCancel: {
            lock.lock()
            let waiter = waiters.removeValue(forKey: id)
            lock.unlock()
            waiter??.resume()
        }
    }

    /// A number for a new waiter, or `nil` when it was asked already.
    private func addWaiter() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard asked == 0 else { return nil }
        nextWaiter += 1
        // Present until the wait is over: evaluate(for:) or a cancel removes it, maybe before the
        // continuation exists.
        waiters[nextWaiter] = .some(nil)
        return nextWaiter
    }
}
