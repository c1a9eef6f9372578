/// A condition decided by a closure: `true` satisfies it, `false` fails it with
/// ``OperationError/conditionFailed(name:)``, and a thrown error fails it with that error.
///
/// The closure runs synchronously when the condition is evaluated, so keep it quick.
public struct BlockCondition: OperationCondition {
    /// The name given to ``init(name:_:)``, used in messages and in the failure
    /// ``OperationError/conditionFailed(name:)``.
    public let name: String
    private let test: @Sendable () throws -> Bool

    /// Creates a condition named `name` that holds when `test` returns `true`.
    public init(name: String = "BlockCondition", _ test: @escaping @Sendable () throws -> Bool) {
        self.name = name
        self.test = test
    }

    /// Calls the closure on the evaluating thread and answers through `completion` before
    /// returning.
    public func evaluate(
        for operation: ConditionalOperation,
        completion: @escaping @Sendable (OperationConditionResult) -> Void
    ) {
        do {
            completion(try test() ? .satisfied : .failed(OperationError.conditionFailed(name: name)))
        } catch {
            completion(.failed(error))
        }
    }
}
