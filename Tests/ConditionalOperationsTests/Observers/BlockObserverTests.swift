import ConditionalOperations
import Foundation
import Testing

extension ConditionalOperationsTests {
    /// S1: a `BlockObserver` calls each closure it was given, in order, whichever closures those are
    /// (it stores one closure and several differently).
    @Suite struct BlockObserverTests {
        /// Runs an operation that produces one operation and is cancelled while it executes.
        static func run(observedBy observers: [BlockObserver]) async {
            let operation = ProbeOperation(.never, finishesWhenCancelled: false)
            for observer in observers { operation.addObserver(observer) }
            OperationQueue().addOperation(operation)
            #expect(await operation.executing.wait())
            operation.produceOperation(BlockOperation {})
            operation.cancel()
            operation.finish()
            await operation.untilFinished()
        }

        @Test func S1_everyClosureOfEveryFormIsCalled() async {
            let heard = Recorder()
            await Self.run(observedBy: [
                BlockObserver(didStart: { _ in heard.record("start only") }),
                BlockObserver(didFinish: { _, _ in heard.record("finish only") }),
                BlockObserver(didCancel: { _, _ in heard.record("cancel only") }),
                BlockObserver(didProduce: { _, _ in heard.record("produce only") }),
                BlockObserver(),
                BlockObserver(
                    didStart: { _ in heard.record("all: start") },
                    didProduce: { _, _ in heard.record("all: produce") },
                    didCancel: { _, _ in heard.record("all: cancel") },
                    didFinish: { _, _ in heard.record("all: finish") }),
            ])
            #expect(
                heard.all == [
                    "start only", "all: start", "produce only", "all: produce", "cancel only", "all: cancel",
                    "finish only", "all: finish",
                ])
        }
    }
}
