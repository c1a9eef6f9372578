import ConditionalOperationsTesting
import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests {
    /// A plain operation whose dependencies finished waits for a slot of its limited queue, as any
    /// other operation there does.
    ///
    /// A known issue, found while trying a drain loop: once the last dependency of a plain
    /// operation on a limited queue finished, its own `isReady` may still say `false` (Foundation
    /// updates it after the queue's watcher heard of the finish), and the queue then hands it to
    /// Foundation's scheduler, which runs it without a slot: it ran beside the holder of the only
    /// slot in 149 of 200 rounds.
    @Suite(.serialized) struct PlainDependentSlotTests {
        typealias Scenario = FoundationQueueScenarioTests

        @Test(.disabled("known issue: a plain dependent on a limited queue can run without a slot"))
        func S19_aPlainDependentNeverRunsBesideTheHolderOfTheOnlySlot() async {
            var early = 0
            for _ in 0..<200 {
                let queue = ConditionalOperationQueue()
                queue.maxConcurrentOperationCount = 1
                let gate = Scenario.Gate(holds: 1)
                queue.addOperation(Scenario.GatedOperation(gate))
                #expect(await gate.started.wait(seconds: 10))
                let dependency = BlockOperation {}
                let ran = Latch()
                let dependent = BlockOperation { ran.countDown() }
                dependent.addDependency(dependency)
                queue.addOperation(dependent)
                let dependencyDone = completionLatch([dependency])
                OperationQueue().addOperation(dependency)
                #expect(await dependencyDone.wait(seconds: 10))
                // The only slot is held: the dependent must not run now.
                if await ran.wait(seconds: 0.02) { early += 1 }
                gate.open()
                #expect(await ran.wait(seconds: 10))
            }
            #expect(early == 0, "a plain dependent ran beside the holder of the only slot")
        }
    }
}
