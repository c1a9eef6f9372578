import Foundation
import Testing

@testable import ConditionalOperations
@testable import ConditionalOperationsMachines

extension ConditionalOperationsTests {
    /// What an action leaves the runner: at most one step of each concern, built once by the event
    /// (``OperationStateMachine/followup(releasing:told:_:)``), so that the runner's one `switch`
    /// per concern takes every step and no two steps of one concern can be asked.
    @Suite struct OperationStateMachineFollowupTests {
        typealias Machine = OperationStateMachine<OperationHost>
        typealias Followup = Machine.Followup

        @Test func aFollowupHoldsOneStepOfEachConcern() {
            let queue = ConditionalOperationQueue()
            let combined = Followup(
                releasesCategories: true, readiness: .handOver(queue), delivery: .deliver,
                running: .executeNow)
            #expect(combined.releasesCategories)
            #expect(combined.queue === queue)
            #expect(combined.delivery == .deliver)
            #expect(combined.running == .executeNow)
            #expect(Followup.nothing.isEmpty && !combined.isEmpty)
        }

        @Test func aHandOverIsToItsOwnQueue() {
            let first = ConditionalOperationQueue()
            let second = ConditionalOperationQueue()
            #expect(Followup.handOver(to: first) == .handOver(to: first))
            #expect(Followup.handOver(to: first) != .handOver(to: second))
            #expect(Followup.handOver(to: first) != .announceReady)
            #expect(Followup.admitted.queue == nil)
        }

        /// The delivery is whether the caller delivers, whichever of the event's steps queued:
        /// a cancel that queued `didCancel` and a launch that queued the finish leave one
        /// `deliver`; the start, first in line, is announced.
        @Test func theDeliveryIsOneWhoeverQueued() {
            var machine = Machine()
            #expect(machine.followup(told: true) == .deliver)
            #expect(machine.followup(told: true, .launched(.queued(deliverer: false))) == .deliver)
            #expect(machine.followup(told: false, .launched(.queued(deliverer: true))) == .deliver)
            #expect(machine.followup(told: false, .launched(.queued(deliverer: false))) == .nothing)
            #expect(
                machine.followup(releasing: true, told: true, .readiness(.announce))
                    == [.releaseCategories, .deliver, .announceReady])
            #expect(machine.followup(.launchLater) == .launchLater)
            #expect(machine.followup(.launched(.drain)) == .drain)
            #expect(machine.followup(.launched(.executeNow)) == .executeNow)
            #expect(machine.followup(.readiness(nil)) == .nothing)
        }

        /// A launch that queued the start, nobody delivering, leaves the start to announce first.
        @Test func aStartFirstInLineIsAnnounced() {
            var machine = OperationStateMachineTableTests.machine(.ready)  // an observer hears the start
            #expect(machine.start() == .launched(.announceStart))
        }
    }
}
