import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests {
    /// S16: `events` yields the state changes and callbacks in S1 order and ends after `didFinish`.
    @Suite struct S16EventsTests {
        static func name(_ event: OperationEvent) -> String {
            switch event {
            case .stateChanged(let state): "\(state)"
            case .didStart: "didStart"
            case .didProduce: "didProduce"
            case .didCancel(let errors): "didCancel(\(errors.count))"
            case .didFinish(let errors): "didFinish(\(errors.count))"
            }
        }

        /// Collects the stream to its end, within a time bound.
        static func collect(_ events: AsyncStream<OperationEvent>) async -> [String]? {
            try? await within { await events.reduce(into: []) { $0.append(name($1)) } }?.get()
        }

        @Test func S16_eventsYieldEveryStateChangeAndCallbackInOrderThenEnd() async {
            let operation = ClosureOperation<Int> { operation in
                operation.produceOperation(BlockOperation {})
                operation.finish(returning: 1)
            }
            operation.addCondition(LaterCondition())
            let events = operation.events
            OperationQueue().addOperation(operation)
            #expect(
                await Self.collect(events) == [
                    "initialized", "pending", "evaluatingConditions", "ready", "executing", "didStart",
                    "didProduce", "finishing", "finished", "didFinish(0)",
                ])
        }

        /// Admitted and ready in one step (no dependency, no condition), it still passes `pending`.
        @Test(arguments: [Admission.plainQueue, .conditionalQueue, .start])
        func S16_anOperationWithNothingToWaitForYieldsPending(admission: Admission) async {
            let operation = ProbeOperation()
            let events = operation.events
            admission.admit(operation)
            #expect(
                await Self.collect(events) == [
                    "initialized", "pending", "ready", "executing", "didStart", "finishing", "finished",
                    "didFinish(0)",
                ])
        }

        enum Admission: CustomStringConvertible, Sendable {
            case plainQueue, conditionalQueue, start

            func admit(_ operation: ConditionalOperation) {
                switch self {
                case .plainQueue: OperationQueue().addOperation(operation)
                case .conditionalQueue: ConditionalOperationQueue().addOperation(operation)
                case .start: operation.start()
                }
            }

            var description: String {
                switch self {
                case .plainQueue: "OperationQueue"
                case .conditionalQueue: "ConditionalOperationQueue"
                case .start: "start()"
                }
            }
        }

        @Test func S16_aCancelIsYieldedInOrder() async {
            let operation = ProbeOperation()
            let events = operation.events
            operation.cancel(with: TestError(1))
            OperationQueue().addOperation(operation)
            #expect(
                await Self.collect(events) == [
                    "initialized", "didCancel(1)", "ready", "finishing", "finished", "didFinish(1)",
                ])
        }

        @Test func S16_askedForOnceFinishedItYieldsTheEnd() async {
            let operation = AsyncOperation { () }
            OperationQueue().addOperation(operation)
            _ = await within { await operation.untilFinished() }
            #expect(await Self.collect(operation.events) == ["finished", "didFinish(0)"])
        }

        @Test func S16_eachAccessIsANewStreamAndOneThatIsNotReadCostsNothing() async throws {
            let operation = AsyncOperation { 3 }
            let unread = operation.events
            let read = operation.events
            OperationQueue().addOperation(operation)
            let collected = await Self.collect(read)
            #expect(collected?.last == "didFinish(0)")
            #expect(try await within { try await operation.value }?.get() == 3)
            withExtendedLifetime(unread) {}
        }
    }
}
