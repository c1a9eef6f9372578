// Twins of the Swift samples in the doc comments of Sources/ConditionalOperations/Conditions,
// verbatim (DocumentationSamplesTests checks it), each with the stubs it needs around it: keep them
// the same.
import ConditionalOperations
import ConditionalOperationsTesting
import Foundation
import Testing

private final class QuickOperation: ConditionalOperation, @unchecked Sendable {
    override func execute() { finish() }
}

private final class SyncOperation: ConditionalOperation, @unchecked Sendable {
    override func execute() { finish() }
}

private actor Session {
    var isSignedIn = true
}

extension ConditionalOperationsTests {
    @Suite struct SymbolSamplesConditionsTests {
        // MutuallyExclusive
        @Test func mutuallyExclusiveOperations() async throws {
            let alert = QuickOperation()
            let sync = SyncOperation()
            alert.addCondition(MutuallyExclusive(category: "alert"))
            sync.addCondition(MutuallyExclusive(SyncOperation.self))
            let queue = OperationQueue()
            queue.addOperation(alert)
            queue.addOperation(sync)
            try await alert.waitUntilFinished(timeout: 5)
            try await sync.waitUntilFinished(timeout: 5)
        }

        // AsyncCondition
        @Test func anAsyncCondition() async throws {
            let upload = QuickOperation()
            let session = Session()
            upload.addCondition(AsyncCondition(name: "signed in") { await session.isSignedIn })
            OperationQueue().addOperation(upload)
            try await upload.waitUntilFinished(timeout: 5)
            #expect(upload.errors.isEmpty)
        }
    }
}
