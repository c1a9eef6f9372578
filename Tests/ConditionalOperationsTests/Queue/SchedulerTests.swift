import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests {
    /// Which ready operations of a queue run now and which wait for a slot, as a value, without
    /// threads: what `maxConcurrentOperationCount`, `isSuspended` and `queuePriority` promise.
    @Suite struct SchedulerTests {
        static func operations(_ count: Int) -> [Foundation.Operation] {
            (0..<count).map { _ in BlockOperation() }
        }

        static func limited(_ limit: Int) -> Scheduler {
            var scheduler = Scheduler()
            _ = scheduler.setLimit(limit)
            return scheduler
        }

        @Test func withoutALimitEveryReadyOperationRunsAtOnce() {
            var scheduler = Scheduler()
            #expect(scheduler.limit == OperationQueue.defaultMaxConcurrentOperationCount)
            let answer = scheduler.submitAll(count: 1000)
            #expect(answer)
            let answer2 = scheduler.finished()
            #expect(answer2 == [])
        }

        @Test func limit_atMostThatManyRunAndEachFinishHandsOutTheNext() {
            var scheduler = Self.limited(2)
            let operations = Self.operations(5)
            let answer = scheduler.submitAll(count: operations.count)
            #expect(!answer)
            let answer2 = scheduler.submit(operations.map { ($0, .normal) })
            #expect(answer2 == Array(operations[0..<2]))
            let answer3 = scheduler.finished()
            #expect(answer3 == [operations[2]])
            let answer4 = scheduler.finished()
            #expect(answer4 == [operations[3]])
            let answer5 = scheduler.finished()
            #expect(answer5 == [operations[4]])
            let answer6 = scheduler.finished()
            #expect(answer6 == [])
        }

        @Test func limit_raisedHandsOutTheWaitingOnes() {
            var scheduler = Self.limited(1)
            let operations = Self.operations(3)
            let answer = scheduler.submit(operations.map { ($0, .normal) })
            #expect(answer == [operations[0]])
            let answer2 = scheduler.setLimit(2)
            #expect(answer2 == [operations[1]])
            let answer3 = scheduler.setLimit(OperationQueue.defaultMaxConcurrentOperationCount)
            #expect(answer3 == [operations[2]])
        }

        @Test func limit_loweredHandsOutNoneUntilBelowIt() {
            var scheduler = Self.limited(2)
            let operations = Self.operations(3)
            let answer = scheduler.submit(operations.map { ($0, .normal) })
            #expect(answer == Array(operations[0..<2]))
            let answer2 = scheduler.setLimit(1)
            #expect(answer2 == [])
            let answer3 = scheduler.finished()
            #expect(answer3 == [])
            let answer4 = scheduler.finished()
            #expect(answer4 == [operations[2]])
        }

        @Test func suspension_startsNoneAndResumingStartsThemUpToTheLimit() {
            var scheduler = Self.limited(2)
            let answer = scheduler.setSuspended(true)
            #expect(answer == [])
            #expect(scheduler.isSuspended)
            let operations = Self.operations(3)
            let answer2 = scheduler.submitAll(count: operations.count)
            #expect(!answer2)
            let answer3 = scheduler.submit(operations.map { ($0, .normal) })
            #expect(answer3 == [])
            let answer4 = scheduler.setSuspended(false)
            #expect(answer4 == Array(operations[0..<2]))
            let answer5 = scheduler.finished()
            #expect(answer5 == [operations[2]])
        }

        @Test func queuePriority_highestFirstThenFirstComeFirstServed() {
            var scheduler = Self.limited(1)
            let running = BlockOperation()
            let answer = scheduler.submit([(running, .normal)])
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
            let answer2 = scheduler.submit(waiting)
            #expect(answer2 == [])
            let order = (0..<waiting.count).flatMap { _ in scheduler.finished() }
            #expect(order == [veryHigh, high, normal1, normal2, low, veryLow])
        }

        @Test func queuePriority_changedWhileWaitingMovesToTheEndOfItsNewLine() {
            var scheduler = Self.limited(1)
            let running = BlockOperation()
            _ = scheduler.submit([(running, .normal)])
            let first = BlockOperation()
            let second = BlockOperation()
            let third = BlockOperation()
            _ = scheduler.submit([(first, .low), (second, .high), (third, .high)])
            scheduler.reprioritize(first, to: .high)
            // Not waiting (it runs): nothing changes.
            scheduler.reprioritize(running, to: .veryHigh)
            let order = (0..<3).flatMap { _ in scheduler.finished() }
            #expect(order == [second, third, first])
        }

        @Test func aLongLineLetsGoOfTheOperationsThatLeftIt() {
            var scheduler = Self.limited(1)
            let operations = Self.operations(200)
            let answer = scheduler.submit(operations.map { ($0, .normal) })
            #expect(answer == [operations[0]])
            let rest = (1..<operations.count).flatMap { _ in scheduler.finished() }
            #expect(rest == Array(operations[1...]))
            let answer2 = scheduler.finished()
            #expect(answer2 == [])
        }
    }
}
