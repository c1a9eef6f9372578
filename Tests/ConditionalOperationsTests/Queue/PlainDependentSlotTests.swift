import ConditionalOperationsTesting
import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests {
    /// A plain operation whose dependencies finished waits for a slot of its limited queue, as any
    /// other operation there does.
    ///
    /// Found while trying a drain loop: once the last dependency of a plain operation on a
    /// limited queue finished, its own `isReady` may still say `false` (Foundation updates it
    /// after the queue's watcher heard of the finish), and the queue handed it to Foundation's
    /// scheduler, which ran it without a slot: beside the holder of the only slot in 149 of 200
    /// rounds.
    @Suite(.serialized) struct PlainDependentSlotTests {
        typealias Scenario = FoundationQueueScenarioTests

        @Test func S19_aPlainDependentNeverRunsBesideTheHolderOfTheOnlySlot() async {
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

        /// A plain operation whose own `isReady` says no until it is told.
        final class HeldBackOperation: Foundation.Operation, @unchecked Sendable {
            // mutable state: behind `allowed`'s lock
            private let allowed = Locked(false)
            let ran = Latch()

            override var isReady: Bool { allowed.withLock { $0 } && super.isReady }

            func allow() {
                willChangeValue(forKey: "isReady")
                allowed.withLock { $0 = true }
                didChangeValue(forKey: "isReady")
            }

            override func main() { ran.countDown() }
        }

        /// A plain operation with readiness of its own takes a slot of a limited queue as any other
        /// does, and keeps it until Foundation's scheduler ran it: it was handed to Foundation's
        /// scheduler without one, and the next operation took the only slot beside it.
        @Test func S19_aPlainOperationWithReadinessOfItsOwnRunsInItsSlot() async {
            let queue = ConditionalOperationQueue()
            queue.maxConcurrentOperationCount = 1
            let heldBack = HeldBackOperation()
            queue.addOperation(heldBack)
            let gate = Scenario.Gate(holds: 1)
            queue.addOperation(Scenario.GatedOperation(gate))
            #expect(await !gate.started.wait(seconds: 0.05), "the only slot is the held-back operation's")
            heldBack.allow()
            #expect(await heldBack.ran.wait(seconds: 10))
            #expect(await gate.started.wait(seconds: 10), "its slot is free once it finished")
            gate.open()
            await queue.waitUntilIdle()
        }

        /// A limit set while plain operations added without one wait in Foundation's scheduler
        /// for their dependencies cannot count them (Foundation tells only its own queue of their
        /// cancel, so they stay there): it says so, naming them, rather than letting one run beside
        /// the holder of the only slot unannounced. A limit set before holds for them
        /// (`S19_aPlainDependentNeverRunsBesideTheHolderOfTheOnlySlot`).
        @Test func aLimitSetWhilePlainOperationsWaitInFoundationsSchedulerSaysItDoesNotCountThem() async {
            let queue = ConditionalOperationQueue()
            queue.name = "late limit"
            let dependency = BlockOperation {}
            let dependent = BlockOperation {}
            dependent.name = "waiting plain"
            dependent.addDependency(dependency)
            queue.addOperation(dependent)
            queue.maxConcurrentOperationCount = 1
            let said = Printed.lines.filter { $0.contains("'late limit'.maxConcurrentOperationCount = 1") }
            #expect(said.count == 1)
            #expect(said.first?.contains("the limit does not count BlockOperation 'waiting plain'") == true)
            #expect(said.first?.contains("may run beside the operations holding the 1 slot(s)") == true)
            // Once the queue forgot it, a limit set again has nothing to say.
            OperationQueue().addOperation(dependency)
            await waitUntil { queue.storage.unslottedPlainCount == 0 }
            #expect(dependent.isFinished)
            queue.maxConcurrentOperationCount = 2
            #expect(!Printed.lines.contains { $0.contains("'late limit'.maxConcurrentOperationCount = 2") })
        }

        /// A running group's children's limit is its `maxConcurrentChildren`: the message names it.
        @Test func aGroupsChildLimitSetWhileAPlainChildWaitsInFoundationsSchedulerSaysSo() async {
            let dependency = BlockOperation {}
            let child = BlockOperation {}
            child.name = "plain child"
            child.addDependency(dependency)
            let group = GroupOperation(operations: [child])
            group.name = "late children limit"
            let done = completionLatch([group])
            OperationQueue().addOperation(group)
            await waitUntil { group.isExecuting }
            group.maxConcurrentChildren = 1
            let said = Printed.lines.filter { $0.contains("'late children limit'.maxConcurrentChildren = 1") }
            #expect(said.count == 1)
            #expect(said.first?.contains("the limit does not count BlockOperation 'plain child'") == true)
            dependency.start()
            #expect(await done.wait(seconds: 10))
        }
    }
}
