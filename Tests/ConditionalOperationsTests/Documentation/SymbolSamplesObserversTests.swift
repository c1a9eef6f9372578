// Twins of the Swift samples in the doc comments of Sources/ConditionalOperations/Observers,
// verbatim (DocumentationSamplesTests checks it), each with the stubs it needs around it: keep them
// the same.
import ConditionalOperations
import ConditionalOperationsTesting
import Foundation
import Testing

private final class SyncOperation: ConditionalOperation, @unchecked Sendable {
    override func execute() { finish() }
}

@MainActor private final class ViewModel {
    var isBusy = true
    var errors: [any Error] = []
}

// MainActorObserver
@MainActor private func observe(_ operation: ConditionalOperation, viewModel: ViewModel) {
    operation.addObserver(
        MainActorObserver(didFinish: { _, errors in
            viewModel.isBusy = false  // a @MainActor view model
            viewModel.errors = errors
        }))
}

extension ConditionalOperationsTests {
    @Suite struct SymbolSamplesObserversTests {
        // ConditionalOperation.addDeadline(after:)
        @Test func aDeadline() async throws {
            let queue = OperationQueue()
            let sync = SyncOperation()
            sync.addDeadline(after: .seconds(30))
            queue.addOperation(sync)
            try await sync.untilFinished(timeout: .seconds(5))
            #expect(sync.errors.isEmpty)
        }

        // TimeoutObserver
        @Test func aTimeoutObserver() async throws {
            let upload = SyncOperation()
            upload.addObserver(TimeoutObserver(timeout: .seconds(30)))
            OperationQueue().addOperation(upload)
            try await upload.untilFinished(timeout: .seconds(5))
            #expect(upload.errors.isEmpty)
        }

        @Test @MainActor func aMainActorObserver() async throws {
            let operation = SyncOperation()
            observe(operation, viewModel: ViewModel())
            OperationQueue().addOperation(operation)
            try await operation.untilFinished(timeout: .seconds(5))
        }
    }
}
