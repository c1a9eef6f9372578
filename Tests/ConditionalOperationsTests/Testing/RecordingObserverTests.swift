import ConditionalOperations
import ConditionalOperationsTesting
import Foundation
import Testing

extension ConditionalOperationsTests {
    /// ConditionalOperationsTesting's `RecordingObserver`: a log to compare in order.
    @Suite struct TestingRecordingObserverTests {
        /// Produces a named operation, then is cancelled with an error while it executes.
        final class ProducingOperation: ConditionalOperation, @unchecked Sendable {  // stored state: none
            override func execute() {
                let produced = BlockOperation {}
                produced.name = "thumbnail"
                produceOperation(produced)
                produceOperation(ProbeOperation())
                cancel(with: TestError(1))
            }
        }

        @Test func itLogsEveryCallbackInOrderWithItsArguments() async throws {
            let observer = RecordingObserver()
            let operation = ProducingOperation()
            operation.addObserver(observer)
            OperationQueue().addOperation(operation)
            try await operation.untilFinished(timeout: .seconds(20))
            #expect(
                observer.log == [
                    "didStart", "didProduce(thumbnail)", "didProduce(ProbeOperation)", "didCancel(1)",
                    "didFinish(1)",
                ])
            #expect(observer.callbacks == ["didStart", "didProduce", "didProduce", "didCancel", "didFinish"])
            #expect(observer.overlapCount == 0)
        }

        @Test func aCancelledOperationLogsNoStart() async throws {
            let observer = RecordingObserver()
            let operation = ProbeOperation()
            operation.addObserver(observer)
            operation.cancel()
            operation.start()
            try await operation.untilFinished(timeout: .seconds(20))
            #expect(observer.log == ["didCancel(0)", "didFinish(0)"])
        }

        @Test func callbacksFromManyThreadsAreAllRecorded() {
            let observer = RecordingObserver()
            let operation = ProbeOperation()
            DispatchQueue.concurrentPerform(iterations: 100) { _ in
                observer.operationDidFinish(operation, errors: [])
            }
            #expect(observer.log == Array(repeating: "didFinish(0)", count: 100))
            #expect(observer.overlapCount < 100, "the first callback overlaps none")
        }
    }
}
