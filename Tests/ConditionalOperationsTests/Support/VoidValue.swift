import Foundation
import Testing

@testable import ConditionalOperations

/// S23: each of `operations`, a `ResultOperation<Void>` (a documented sample's
/// `ClosureOperation<Void> { $0.finish() }`) that finished without errors, has the value `()`:
/// `value` returns it, and a consumer injecting from it executes.
func expectVoidValue(
    _ operations: Foundation.Operation..., sourceLocation: SourceLocation = #_sourceLocation
) async {
    for operation in operations {
        guard let producer = operation as? ResultOperation<Void> else {
            Issue.record("\(operation) is not a ResultOperation<Void>", sourceLocation: sourceLocation)
            continue
        }
        let value = await within { try await producer.value }
        #expect(value != nil, "value did not return", sourceLocation: sourceLocation)
        #expect(throws: Never.self, sourceLocation: sourceLocation) { try value?.get() }
        let consumer = ProbeOperation()
        consumer.inject(from: producer) { _, _ in }
        let injected = await within { try await OperationQueue().run(consumer) }
        #expect(throws: Never.self, sourceLocation: sourceLocation) { try injected?.get() }
        #expect(consumer.executions.current == 1, sourceLocation: sourceLocation)
    }
}
