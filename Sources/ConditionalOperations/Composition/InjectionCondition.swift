import Foundation

/// Hands a producer's output to its consumer, as a condition of the consumer: conditions are
/// evaluated once every dependency (the producer among them) finished, before the consumer
/// executes, and are released after evaluation (S2), so the injection outlives nothing.
struct InjectionCondition<Output: Sendable>: OperationCondition {
    let producer: ResultOperation<Output>
    let handOver: @Sendable (ConditionalOperation, Output) throws -> Void

    var name: String { "Injection<\(Output.self)>" }

    func evaluate(
        for operation: ConditionalOperation,
        completion: @escaping @Sendable (OperationConditionResult) -> Void
    ) {
        // The producer is reported with its own errors (none if it finished without a value).
        if producer.countsAsCancelled {
            return completion(.failed(OperationError.dependenciesCancelled([.init(producer)])))
        }
        // A skipped producer has no output to hand over (S17): the consumer says so.
        guard case .success(let output) = producer.result else {
            return completion(.failed(OperationError.dependenciesFailed([.init(producer)])))
        }
        do {
            try handOver(operation, output)
            completion(.satisfied)
        } catch {
            completion(.failed(error))
        }
    }
}
