/// A condition decided by an `async` closure (S15): `true` satisfies it, `false` fails it with
/// ``OperationError/conditionFailed(name:)``, and a thrown error fails it with that error.
///
/// ```swift
/// upload.addCondition(AsyncCondition(name: "signed in") { await session.isSignedIn })
/// ```
///
/// The closure runs in a task, holding no thread while it awaits. Cancelling the operation while
/// the condition is evaluated cancels that task, and its late answer is ignored.
public struct AsyncCondition: OperationCondition {
    public let name: String
    private let test: @Sendable () async throws -> Bool

    /// Creates a condition named `name` that holds when `test` returns `true`.
    public init(name: String = "AsyncCondition", _ test: @escaping @Sendable () async throws -> Bool) {
        self.name = name
        self.test = test
    }

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
    }
}
