import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests {
    /// What an action leaves the runner: at most one step of each concern, whatever the order the
    /// events combined them in, so that the runner's one `switch` per concern takes every step.
    @Suite struct OperationStateMachineFollowupTests {
        typealias Followup = OperationStateMachine.Followup

        @Test func stepsCombinedInAnyOrderAreTheSameFollowupOneStepPerConcern() {
            let queue = ConditionalOperationQueue()
            let combined: Followup = [.deliver, .handOver(to: queue), .releaseCategories, .executeNow]
            #expect(combined == [.executeNow, .releaseCategories, .handOver(to: queue), .deliver])
            #expect(combined.releasesCategories)
            #expect(combined.queue === queue)
            #expect(combined.delivery == .deliver)
            #expect(combined.running == .executeNow)
            // A step asked twice is one step: a cancel that queues `didCancel` and a finish that
            // queues the end both leave `deliver`.
            #expect(Followup.deliver.union(.deliver) == .deliver)
            let none: Followup = []
            #expect(none.isEmpty && !combined.isEmpty)
        }

        @Test func aHandOverIsToItsOwnQueue() {
            let first = ConditionalOperationQueue()
            let second = ConditionalOperationQueue()
            #expect(Followup.handOver(to: first) == .handOver(to: first))
            #expect(Followup.handOver(to: first) != .handOver(to: second))
            #expect(Followup.handOver(to: first) != .announceReady)
            #expect(Followup.admitted.queue == nil)
        }
    }
}
