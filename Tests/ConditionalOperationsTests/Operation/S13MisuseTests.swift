import ConditionalOperations
import Foundation
import Testing

extension ConditionalOperationsTests {
    /// S13: misuse traps with a message naming the operation and the rule.
    @Suite struct S13MisuseTests {
        #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))  // exit tests: 6.2; no iOS
            @Test func S13_startingTwiceTraps() async {
                let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                    let operation = ConditionalOperation()
                    operation.name = "Twice"
                    operation.start()
                    operation.start()
                }
                let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
                #expect(message.contains("ConditionalOperation 'Twice'"))
                #expect(message.contains("S13"))
            }
        #endif

        #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))  // exit tests: 6.2; no iOS
            @Test func S13_addingAConditionAfterEvaluationTraps() async {
                let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                    let operation = ConditionalOperation()
                    operation.name = "Late"
                    _ = operation.isReady
                    operation.addCondition(BlockCondition(name: "late condition") { true })
                }
                let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
                #expect(message.contains("ConditionalOperation 'Late'"))
                #expect(message.contains("late condition"))
                #expect(message.contains("S13"))
            }
        #endif

        @Test func S13_aQueueAcceptsAnOperationThatReadinessQueriesMovedForward() async {
            let operation = ProbeOperation()
            operation.addCondition(BlockCondition { true })
            #expect(operation.isReady)
            #expect(operation.state == .ready)
            let done = completionLatch([operation])
            OperationQueue().addOperation(operation)
            #expect(await done.wait())
            #expect(operation.executions.current == 1)
        }
    }
}
