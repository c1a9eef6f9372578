import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests {
    /// UI code: observers and the queue delegate called on the main actor, in S1's order.
    @Suite struct MainActorCallbackTests {
        @MainActor final class ViewModel {
            var log: [String] = []
        }

        @Test @MainActor func aMainActorObserverRunsOnTheMainActorInOrder() async {
            let model = ViewModel()
            let done = Latch()
            let operation = ClosureOperation<Void> { $0.finish() }
            operation.addObserver(
                MainActorObserver(
                    didStart: { _ in model.log.append("didStart") },
                    didFinish: { _, errors in
                        model.log.append("didFinish(\(errors.count))")
                        done.countDown()
                    }))
            OperationQueue().addOperation(operation)
            #expect(await done.wait())
            #expect(model.log == ["didStart", "didFinish(0)"])
        }

        @Test @MainActor func aMainActorQueueDelegateRunsOnTheMainActor() async {
            let model = ViewModel()
            let done = Latch()
            let delegate = MainActorQueueDelegate(
                didAdd: { _, operation in model.log.append("added \(operation.name ?? "")") },
                didFinish: { _, operation, _ in
                    model.log.append("finished \(operation.name ?? "")")
                    done.countDown()
                })
            let queue = ConditionalOperationQueue()
            queue.delegate = delegate
            let operation = ClosureOperation<Void>(name: "job") { $0.finish() }
            queue.addOperation(operation)
            #expect(await done.wait())
            #expect(model.log == ["added job", "finished job"])
        }
    }
}
