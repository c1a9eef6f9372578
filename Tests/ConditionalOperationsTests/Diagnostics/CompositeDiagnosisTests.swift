import ConditionalOperationsTesting
import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests {
    /// S32: a composite's diagnosis says which attempt it runs and what that attempt waits for; a
    /// group's graph shows its children.
    @Suite struct CompositeDiagnosisTests {
        @Test func S32_aRetrysDiagnosisNamesTheAttemptItRunsAndWhatItWaitsFor() async {
            let attempt = HeldOperation()
            attempt.name = "fetch"
            let retry = RetryOperation<Int>(maximumAttempts: 3) { _ in attempt }
            retry.name = "sync"
            ConditionalOperationQueue().addOperation(retry)
            #expect(await attempt.executing.wait(seconds: 10))
            let diagnosis = retry.diagnosis
            guard case .attempt(1, let inner) = diagnosis.reason else {
                Issue.record("\(diagnosis)")
                return
            }
            #expect(inner.name == "HeldOperation 'fetch'")
            #expect(
                "\(diagnosis)".hasPrefix(
                    "RetryOperation<Int> 'sync' (executing): running attempt 1: HeldOperation 'fetch' (executing): executing"
                ))
            retry.cancel()
            #expect(await within { await retry.untilFinished() } != nil)
        }

        @Test func S32_aRetryBackingOffSaysWhichAttemptEnded() async {
            let failed = Latch()
            let retry = RetryOperation<Int>(maximumAttempts: 3, backoff: .constant(.seconds(30))) { number in
                let attempt = ValueOperation<Int>(.failure(TestError(number)))
                attempt.addObserver(BlockObserver(didFinish: { _, _ in failed.countDown() }))
                return attempt
            }
            ConditionalOperationQueue().addOperation(retry)
            #expect(await failed.wait(seconds: 10))
            await waitUntil(seconds: 5) {
                if case .betweenAttempts(after: 1) = retry.diagnosis.reason { return true }
                return false
            }
            #expect(
                "\(retry.diagnosis.reason)"
                    == "attempt 1 ended; the next one starts after the back-off's wait")
            retry.cancel()
            #expect(await within { await retry.untilFinished() } != nil)
        }

        @Test func S32_aGroupsGraphShowsItsChildren() {
            let child = ClosureOperation<Void>(name: "child") { $0.finish() }
            let group = GroupOperation(operations: [child])
            group.name = "sync"
            let graph = OperationGraph([group])
            #expect(graph.dot.contains("ClosureOperation<()> 'child'"))
            #expect(graph.dot.contains("[style=dashed, label=\"in\"]"))
            #expect(graph.mermaid.contains("-. in .->"))
            let alone = OperationGraph([child])
            #expect(!alone.dot.contains("dashed, label"), "a child alone shows no group")
        }
    }
}
