import ConditionalOperationsTesting
import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests {
    /// The diagnosis of a finished operation tells whether it executed: one cancelled before
    /// `execute()` was called, also as it started (S1: a `didStart` observer cancelled it), is
    /// `cancelled before it executed`; one cancelled while it executed is `finished`.
    @Suite struct CancelledDiagnosisTests {
        /// What is cancelled as it starts.
        enum Kind: String, CaseIterable, CustomStringConvertible {
            case operation
            /// One that finishes itself once cancelled (S5).
            case operationFinishingItself
            /// A group, which drains its children first (S11).
            case group

            var description: String { rawValue }

            func make() -> (ConditionalOperation, executions: Counter) {
                switch self {
                case .operation:
                    let operation = ProbeOperation()
                    return (operation, operation.executions)
                case .operationFinishingItself:
                    let operation = ProbeOperation(finishesWhenCancelled: false)
                    return (operation, operation.executions)
                case .group:
                    let group = CountingGroup(operations: [ProbeOperation(.never)])
                    return (group, group.executions)
                }
            }
        }

        final class CountingGroup: GroupOperation, @unchecked Sendable {  // stored state: lets only
            let executions = Counter()

            override func execute() {
                executions.increment()
                super.execute()
            }
        }

        @Test(arguments: Kind.allCases, [false, true])
        func S1_anOperationCancelledAsItStartsIsDiagnosedCancelledBeforeItExecuted(
            kind: Kind, conditional: Bool
        ) async {
            let (operation, executions) = kind.make()
            operation.name = "started"
            operation.addObserver(BlockObserver(didStart: { $0.cancel(with: TestError(1)) }))
            let done = completionLatch([operation])
            (conditional ? ConditionalOperationQueue() : OperationQueue()).addOperation(operation)
            #expect(await done.wait())
            await waitUntil { operation.isFinished }
            #expect(executions.current == 0, "S1: execute() is not called")
            guard case .cancelled(let errors) = operation.diagnosis.reason else {
                Issue.record("\(kind): \(operation.diagnosis)")
                return
            }
            #expect(testErrorIDs(errors) == [1])
            #expect(
                operation.diagnosis.description.hasSuffix(
                    "(finished, cancelled): cancelled before it executed, with 1 error"))
        }

        @Test func S4_anOperationCancelledBeforeItStartedIsDiagnosedCancelledBeforeItExecuted() async {
            let operation = ProbeOperation()
            operation.cancel()
            let done = completionLatch([operation])
            ConditionalOperationQueue().addOperation(operation)
            #expect(await done.wait())
            await waitUntil { operation.isFinished }
            #expect(
                operation.diagnosis.description
                    == "ProbeOperation (finished, cancelled): cancelled before it executed")
        }

        @Test func S5_anOperationCancelledWhileItExecutedIsDiagnosedFinished() async {
            let operation = ProbeOperation(.never)
            let done = completionLatch([operation])
            ConditionalOperationQueue().addOperation(operation)
            #expect(await operation.executing.wait())
            operation.cancel()
            #expect(await done.wait())
            await waitUntil { operation.isFinished }
            #expect(operation.diagnosis.description == "ProbeOperation (finished, cancelled): finished")
        }

        @Test func S6_anOperationFinishedAsItStartsIsDiagnosedFinished() async {
            let operation = ProbeOperation()
            operation.addObserver(BlockObserver(didStart: { $0.finish() }))
            let done = completionLatch([operation])
            ConditionalOperationQueue().addOperation(operation)
            #expect(await done.wait())
            await waitUntil { operation.isFinished }
            #expect(operation.executions.current == 0)
            #expect(operation.diagnosis.description == "ProbeOperation (finished): finished")
        }
    }
}
