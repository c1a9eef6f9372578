import ConditionalOperations
import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests {
    /// The logging hook: what an operation does reaches its loggers in order, outside every lock.
    @Suite struct LoggerTests {
        /// Collects records and opens a latch at each operation's `finished` record.
        final class Collector: OperationLogger {
            let records = Locked<[OperationLogRecord]>([])
            let finished: Latch

            init(operations: Int = 1) {
                finished = Latch(count: operations)
            }

            func log(_ record: OperationLogRecord) {
                records.withLock { $0.append(record) }
                if case .finished = record.event { finished.countDown() }
            }

            func lines(of operation: ConditionalOperation) -> [String] {
                records.withLock { $0 }.filter { $0.operation === operation }.map { "\($0.event)" }
            }
        }

        @Test(arguments: [false, true])
        func aFailedConditionIsLoggedWithItsStatesAndTheFinish(conditional: Bool) async {
            let collector = Collector()
            let operation = ProbeOperation()
            operation.addCondition(BlockCondition(name: "Never") { false })
            operation.addLogger(collector)
            (conditional ? ConditionalOperationQueue() : OperationQueue()).addOperation(operation)
            #expect(await collector.finished.wait())
            let lines = collector.lines(of: operation)
            #expect(lines.first == "state initialized")
            #expect(lines.contains { $0.hasPrefix("condition Never failed in ") })
            #expect(
                lines.suffix(3) == [
                    "state finishing", "state finished", "finished with condition 'Never' failed",
                ])
            #expect(!lines.contains("state executing"))
            #expect(operation.executions.current == 0)
        }

        @Test func aQueuesLoggerHearsEveryOperationAddedAndItsCategoryWait() async {
            let collector = Collector(operations: 2)
            let queue = ConditionalOperationQueue()
            queue.logger = collector
            let holder = ProbeOperation(.never)
            holder.addCondition(MutuallyExclusive(category: "LoggerTests"))
            let waiter = ProbeOperation()
            waiter.addCondition(MutuallyExclusive(category: "LoggerTests"))
            queue.addOperation(holder)
            #expect(await holder.executing.wait())
            queue.addOperation(waiter)
            await waitUntil(seconds: 10) {
                collector.lines(of: waiter).contains("waiting for exclusivity: LoggerTests")
            }
            holder.finish()
            #expect(await collector.finished.wait())
            let lines = collector.lines(of: waiter)
            let waiting = lines.firstIndex(of: "waiting for exclusivity: LoggerTests")
            let acquired = lines.firstIndex { $0.hasPrefix("acquired LoggerTests after ") }
            #expect(waiting != nil && acquired != nil && waiting! < acquired!)
            #expect(lines.last == "finished")
            #expect(collector.lines(of: holder).contains("state executing"))
        }

        @Test func aCancelIsLoggedWithItsErrors() async {
            let collector = Collector()
            let operation = ProbeOperation(.never)
            operation.addLogger(collector)
            OperationQueue().addOperation(operation)
            #expect(await operation.executing.wait())
            operation.cancel(with: TestError(7))
            #expect(await collector.finished.wait())
            let records = collector.records.withLock { $0 }
            #expect(records.contains { $0.isFailure && "\($0.event)" == "cancelled: TestError(id: 7)" })
            #expect(records.last.map { "\($0)" } == "ProbeOperation: finished with TestError(id: 7)")
        }

        @Test func aLoggerAddedToAFinishedOperationHearsTheEnd() async {
            let operation = ProbeOperation()
            let done = completionLatch([operation])
            OperationQueue().addOperation(operation)
            #expect(await done.wait())
            let collector = Collector()
            operation.addLogger(collector)
            #expect(await collector.finished.wait())
            #expect(collector.lines(of: operation) == ["state finished", "finished"])
        }
    }
}
