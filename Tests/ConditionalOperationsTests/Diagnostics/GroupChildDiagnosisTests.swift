import ConditionalOperations
import ConditionalOperationsTesting
import Foundation
import Testing

extension ConditionalOperationsTests {
    /// S31: a child waiting for its group to start says so in its `diagnosis`, naming the group.
    @Suite struct GroupChildDiagnosisTests {
        @Test(arguments: [false, true])
        func S31_aChildOfAQueuedGroupNotStartedYetSaysItWaitsForItsGroup(conditional: Bool) async throws {
            let blocker = ProbeOperation(.never)
            let child = ProbeOperation()
            child.name = "child"
            let group = GroupOperation(operations: [child])
            group.name = "sync"
            group.addDependency(blocker)
            let queue: OperationQueue = conditional ? ConditionalOperationQueue() : OperationQueue()
            queue.add([blocker, group])
            #expect(await blocker.executing.wait())
            guard case .group(let name) = child.diagnosis.reason else {
                Issue.record("expected the group, got \(child.diagnosis)")
                return
            }
            #expect(name == "GroupOperation 'sync'")
            #expect(
                child.diagnosis.description
                    == "ProbeOperation 'child' (initialized): waiting for its group GroupOperation 'sync' to start"
            )
            blocker.finish()
            try await group.untilFinished(timeout: .seconds(10))
            #expect(child.diagnosis.description.hasSuffix("(finished): finished"))
        }

        @Test func S31_aChildOfAGroupNotAddedAnywhereSaysItWaitsForItsGroupToo() {
            let child = ProbeOperation()
            let group = GroupOperation(operations: [child])
            group.name = "idle"
            #expect(
                child.diagnosis.description.hasSuffix("waiting for its group GroupOperation 'idle' to start"))
        }
    }
}
