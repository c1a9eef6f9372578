import ConditionalOperationsMachines
import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests {
    /// Which ready operations of a queue run now and which wait for a slot, as a value, without
    /// threads: what `maxConcurrentOperationCount`, `isSuspended` and `queuePriority` promise.
    @Suite struct QueueStateMachineSlotTests {
        static func operations(_ count: Int) -> [Foundation.Operation] {
            (0..<count).map { _ in BlockOperation() }
        }

        static func limited(_ limit: Int) -> QueueStateMachine {
            var machine = QueueStateMachine()
            _ = machine.setLimit(limit)
            return machine
        }

        @Test func withoutALimitEveryReadyOperationRunsAtOnce() {
            var machine = QueueStateMachine()
            #expect(machine.limit == OperationQueue.defaultMaxConcurrentOperationCount)
            let answer = machine.submitAll(count: 1000)
            #expect(answer)
            let answer2 = machine.slotFreed()
            #expect(answer2 == [])
        }

        @Test func limit_atMostThatManyRunAndEachFinishHandsOutTheNext() {
            var machine = Self.limited(2)
            let operations = Self.operations(5)
            let answer = machine.submitAll(count: operations.count)
            #expect(!answer)
            let answer2 = machine.submit(operations.map { ($0, .normal) })
            #expect(answer2 == Array(operations[0..<2]))
            let answer3 = machine.slotFreed()
            #expect(answer3 == [operations[2]])
            let answer4 = machine.slotFreed()
            #expect(answer4 == [operations[3]])
            let answer5 = machine.slotFreed()
            #expect(answer5 == [operations[4]])
            let answer6 = machine.slotFreed()
            #expect(answer6 == [])
        }

        @Test func limit_raisedHandsOutTheWaitingOnes() {
            var machine = Self.limited(1)
            let operations = Self.operations(3)
            let answer = machine.submit(operations.map { ($0, .normal) })
            #expect(answer == [operations[0]])
            let answer2 = machine.setLimit(2)
            #expect(answer2 == [operations[1]])
            let answer3 = machine.setLimit(OperationQueue.defaultMaxConcurrentOperationCount)
            #expect(answer3 == [operations[2]])
        }

        @Test func limit_loweredHandsOutNoneUntilBelowIt() {
            var machine = Self.limited(2)
            let operations = Self.operations(3)
            let answer = machine.submit(operations.map { ($0, .normal) })
            #expect(answer == Array(operations[0..<2]))
            let answer2 = machine.setLimit(1)
            #expect(answer2 == [])
            let answer3 = machine.slotFreed()
            #expect(answer3 == [])
            let answer4 = machine.slotFreed()
            #expect(answer4 == [operations[2]])
        }

        @Test func suspension_startsNoneAndResumingStartsThemUpToTheLimit() {
            var machine = Self.limited(2)
            let answer = machine.setSuspended(true)
            #expect(answer == [])
            #expect(machine.isSuspended)
            let operations = Self.operations(3)
            let answer2 = machine.submitAll(count: operations.count)
            #expect(!answer2)
            let answer3 = machine.submit(operations.map { ($0, .normal) })
            #expect(answer3 == [])
            let answer4 = machine.setSuspended(false)
            #expect(answer4 == Array(operations[0..<2]))
            let answer5 = machine.slotFreed()
            #expect(answer5 == [operations[2]])
        }

        @Test func queuePriority_highestFirstThenFirstComeFirstServed() {
            var machine = Self.limited(1)
            let running = BlockOperation()
            let answer = machine.submit([(running, .normal)])
            #expect(answer == [running])
            let low = BlockOperation()
            let normal1 = BlockOperation()
            let normal2 = BlockOperation()
            let veryHigh = BlockOperation()
            let veryLow = BlockOperation()
            let high = BlockOperation()
            let waiting: [(Foundation.Operation, Foundation.Operation.QueuePriority)] = [
                (low, .low), (normal1, .normal), (normal2, .normal), (veryHigh, .veryHigh),
                (veryLow, .veryLow),
                (high, .high),
            ]
            let answer2 = machine.submit(waiting)
            #expect(answer2 == [])
            let order = (0..<waiting.count).flatMap { _ in machine.slotFreed() }
            #expect(order == [veryHigh, high, normal1, normal2, low, veryLow])
        }

        @Test func queuePriority_changedWhileWaitingMovesToTheEndOfItsNewLine() {
            var machine = Self.limited(1)
            let running = BlockOperation()
            _ = machine.submit([(running, .normal)])
            let first = BlockOperation()
            let second = BlockOperation()
            let third = BlockOperation()
            _ = machine.submit([(first, .low), (second, .high), (third, .high)])
            machine.reprioritize(first, to: .high)
            // Not waiting (it runs): nothing changes.
            machine.reprioritize(running, to: .veryHigh)
            let order = (0..<3).flatMap { _ in machine.slotFreed() }
            #expect(order == [second, third, first])
        }

        @Test func aLongLineLetsGoOfTheOperationsThatLeftIt() {
            var machine = Self.limited(1)
            let operations = Self.operations(200)
            let answer = machine.submit(operations.map { ($0, .normal) })
            #expect(answer == [operations[0]])
            let rest = (1..<operations.count).flatMap { _ in machine.slotFreed() }
            #expect(rest == Array(operations[1...]))
            let answer2 = machine.slotFreed()
            #expect(answer2 == [])
        }

        /// A lone operation handed out to an idle queue goes with its drainer; added one at a time
        /// by the program while that drainer is busy, the next ones wait for one drainer, which
        /// takes them all, not for one drainer each; back from its `start()`, the busy one takes
        /// them too.
        @Test func drainers_operationsAddedOneAtATimeBesideABusyDrainerShareOne() throws {
            var machine = QueueStateMachine()
            let operations = Self.operations(4)
            let handedOut = operations.map { machine.handOut($0, fromOutside: true) }
            let lone = try #require(handedOut[0])
            #expect(lone.first === operations[0])
            let next = try #require(handedOut[1])
            #expect(next.first == nil)
            #expect(handedOut[2] == nil && handedOut[3] == nil)
            let fetched = machine.nextToStart(isBack: false, on: next.target)
            #expect(fetched.operation === operations[1])
            #expect(fetched.another === next.target)  // two still wait, and no drainer is on its way
            let back = machine.nextToStart(isBack: true, on: lone.target)
            #expect(back.operation === operations[2])
            #expect(back.another == nil)  // the one just asked for is on its way
        }

        /// Handed out by an operation finishing inside a busy drainer's `start()` (a dependent
        /// it made ready), a lone operation goes with a drainer of its own, as on an idle queue.
        @Test func drainers_anOperationHandedOutFromInsideADrainerGoesWithItsOwn() throws {
            var machine = QueueStateMachine()
            let operations = Self.operations(2)
            let handedOut = operations.map { machine.handOut($0, fromOutside: false) }
            #expect(handedOut[0]?.first === operations[0])
            #expect(handedOut[1]?.first === operations[1])
        }
    }
}
