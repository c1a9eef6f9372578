import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests {
    @Suite struct ScratchTests {
        @Test func scratchTightIsReady() async {
            for _ in 0..<200 {
                let queue = OperationQueue()
                queue.isSuspended = true
                let operation = AdversaryOperation(label: "x")
                let gate = AdversaryGate(name: "g")
                operation.addCondition(gate)
                operation.resolve()
                queue.addOperation(operation)
                let readers = AdversaryReaders(count: 2, pause: false) { _ in _ = operation.isReady }
                gate.answer(.satisfied)
                usleep(200)
                queue.isSuspended = false
                #expect(await operation.completed.wait(seconds: 5))
                _ = await readers.stop()
            }
        }
    }
}
