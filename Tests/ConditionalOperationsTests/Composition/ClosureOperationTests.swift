import ConditionalOperationsTesting
import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests.CompositionTests {
    /// `ClosureOperation`: completion-handler work without a subclass.
    @Suite struct ClosureOperationTests {
        @Test func aClosureFinishesItsOperationLaterFromAnotherThread() async throws {
            let operation = ClosureOperation<String>(name: "later") { operation in
                DispatchQueue.global().async { operation.finish(with: .success("done")) }
            }
            #expect(try await within { try await OperationQueue().run(operation) }?.get() == "done")
            #expect(operation.name == "later")
        }

        @Test func aClosureIsNotRunForACancelledOperation() async throws {
            let ran = Recorder()
            let operation = ClosureOperation<Void> { operation in
                ran.record("ran")
                operation.finish()
            }
            operation.cancel()
            OperationQueue().addOperation(operation)
            try await operation.untilFinished(timeout: .seconds(10))
            #expect(ran.all.isEmpty)
        }
    }
}
