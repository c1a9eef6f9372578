import ConditionalOperationsTesting
import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests {
    /// How an operation on a plain `OperationQueue` tells the queue it became ready: once per
    /// change. Timing-sensitive (an operation holds the queue's one slot for a while), so one at
    /// a time.
    @Suite(.serialized) struct PlainQueueReadinessTests {
        /// Counts its `isReady` announcements; executes once `gate` opened, telling `started`.
        final class WaitingOperation: ConditionalOperation, @unchecked Sendable {  // state: Recorder
            let announcements = Recorder()
            let gate: DispatchGroup
            let started: DispatchSemaphore
            /// Signalled at each announcement, if given.
            let announced: DispatchSemaphore?

            init(gate: DispatchGroup, started: DispatchSemaphore, announced: DispatchSemaphore? = nil) {
                self.gate = gate
                self.started = started
                self.announced = announced
            }

            override func willChange(_ property: ObservedProperty) {
                if property == .isReady {
                    announcements.record("isReady")
                    announced?.signal()
                }
                super.willChange(property)
            }

            override func execute() {
                started.signal()
                gate.wait()
                finish()
            }
        }

        /// Operations that became ready inside Foundation's own `isReady` query (their dependency
        /// finished) and then wait for the queue's one slot are not announced again: where the
        /// queue re-tests the `false` answers it stored, a stale one would be found by the pass
        /// that follows, and each announcement costs the queue a pass over every operation it
        /// holds. (Where it does not, each announces itself again a moment after it became ready,
        /// as it waits: the test waits for one to, bounded, since the look's timer and the
        /// announcement after it share the dispatch pool with other tests.)
        @Test func operationsMadeReadyByTheirDependencyAreNotAnnouncedAgainWhileTheyWaitForASlot()
            async throws
        {
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 1
            let gate = DispatchGroup()
            gate.enter()
            let started = DispatchSemaphore(value: 0)
            let announcement = DispatchSemaphore(value: 0)
            let dependency = ConditionalOperation()
            let waiting = (0..<20).map { _ in
                WaitingOperation(gate: gate, started: started, announced: announcement)
            }
            for operation in waiting { operation.addDependency(dependency) }
            // Added before their dependency: each answers `false` first.
            for operation in waiting { queue.addOperation(operation) }
            queue.addOperation(dependency)
            // One holds the slot until the gate opens; the others wait for it, ready.
            #expect(started.wait(timeout: .now() + .seconds(10)) == .success)
            // Where none comes: long past the moment each would have announced itself again.
            let bound: DispatchTimeInterval =
                OperationHost.retestsStoredReadiness ? .milliseconds(300) : .seconds(10)
            let heard = announcement.wait(timeout: .now() + bound) == .success
            let announced = waiting.map(\.announcements.all.count)
            gate.leave()
            for operation in waiting { try await operation.untilFinished(timeout: .seconds(10)) }
            if OperationHost.retestsStoredReadiness {
                #expect(announced.allSatisfy { $0 == 0 }, "announcements: \(announced)")
            } else {
                #expect(heard, "each waiting one looks again: \(announced)")
            }
        }

        /// Operations made ready through their conditions inside Foundation's own `isReady` query
        /// (a read while the conditions were evaluated may have answered `false` with no pass to
        /// follow) look again a moment later, every one of them, though one timer looks at all,
        /// and announce themselves again while they wait for the queue's one slot.
        @Test func everyOperationMadeReadyThroughItsConditionsLooksAgainWhileItWaitsForASlot() async throws {
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 1
            let gate = DispatchGroup()
            gate.enter()
            let started = DispatchSemaphore(value: 0)
            let announced = DispatchSemaphore(value: 0)
            let dependency = ConditionalOperation()
            let waiting = (0..<20).map { _ in
                WaitingOperation(gate: gate, started: started, announced: announced)
            }
            for operation in waiting {
                operation.addDependency(dependency)
                operation.addCondition(BlockCondition { true })
            }
            for operation in waiting { queue.addOperation(operation) }
            queue.addOperation(dependency)
            #expect(started.wait(timeout: .now() + .seconds(10)) == .success)
            // One holds the slot; each of the other 19 announces itself again as it waits.
            var heard = 0
            while heard < 19, announced.wait(timeout: .now() + .seconds(10)) == .success { heard += 1 }
            let announcements = waiting.map(\.announcements.all.count)
            gate.leave()
            for operation in waiting { try await operation.untilFinished(timeout: .seconds(10)) }
            #expect(heard == 19, "announcements: \(announcements)")
            #expect(announcements.filter { $0 > 0 }.count >= 19, "announcements: \(announcements)")
        }
    }
}
