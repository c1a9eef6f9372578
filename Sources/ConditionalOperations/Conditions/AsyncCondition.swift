/// A condition decided by an `async` closure (S15): `true` satisfies it, `false` fails it with
/// ``OperationError/conditionFailed(name:)``, and a thrown error fails it with that error.
///
/// ```swift
/// upload.addCondition(AsyncCondition(name: "signed in") { await session.isSignedIn })
/// ```
///
/// The closure runs in a task, holding no thread while it awaits. Cancelling the operation while
/// the condition is evaluated cancels that task, and its late answer is ignored; so does an
/// ``AnyOf`` that answered without it.
public struct AsyncCondition: OperationCondition {
    /// The name given to ``init(name:_:)``, used in messages and in the failure
    /// ``OperationError/conditionFailed(name:)``.
    public let name: String
    private let test: @Sendable () async throws -> Bool

    /// Creates a condition named `name` that holds when `test` returns `true`.
    public init(name: String = "AsyncCondition", _ test: @escaping @Sendable () async throws -> Bool) {
        self.name = name
        self.test = test
    }

    /// Runs the closure in a task at the operation's quality of service and answers through
    /// `completion` when it returns or throws; returns at once, without waiting for the task.
    ///
    /// Cancelling `operation` cancels the task, also when the operation was cancelled before the
    /// task was made; the task's late answer is then ignored.
    public func evaluate(
        for operation: ConditionalOperation,
        completion: @escaping @Sendable (OperationConditionResult) -> Void
    ) {
        let name = name
        let test = test
        let task = Task(priority: operation.qualityOfService.taskPriority) {
            do {
                completion(
                    try await test() ? .satisfied : .failed(OperationError.conditionFailed(name: name)))
            } catch {
                completion(.failed(error))
            }
        }
        operation.addObserver(BlockObserver(didCancel: { _, _ in task.cancel() }))
        if operation.isCancelled { task.cancel() }  // cancelled before the observer was added
        EvaluationScope.current?.onEnd { task.cancel() }  // an AnyOf answered without it (S18)
    }
}
