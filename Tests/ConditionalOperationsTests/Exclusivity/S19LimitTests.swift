import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests {
    /// S19: at most `limit` operations holding a category execute at once, across every queue, first
    /// come, first served, holding no thread; several categories are taken all at once or not at all.
    @Suite struct S19LimitTests {
        typealias Occupancy = S7MutualExclusivityTests.Occupancy

        /// A probe that never finishes by itself, in `category` with `limit`.
        static func holder(_ category: String, limit: Int, label: String = "", order: Recorder? = nil)
            -> RecordingProbe
        {
            let operation = RecordingProbe(label: label, order: order)
            operation.addCondition(MutuallyExclusive(category: category, limit: limit))
            return operation
        }

        /// Records its label when it executes, then waits to be finished from outside.
        final class RecordingProbe: ConditionalOperation, @unchecked Sendable {
            // stored state: lets only
            let label: String
            let order: Recorder?
            let executing = Latch()

            init(label: String, order: Recorder?) {
                self.label = label
                self.order = order
                super.init()
            }

            override func execute() {
                order?.record(label)
                executing.countDown()
            }
        }

        static func executingCount(_ operations: [ConditionalOperation]) -> Int {
            operations.count { $0.isExecuting }
        }

        @Test func S19_atMostLimitOperationsExecuteAtOnceAcrossQueues() async {
            let category = "S19.limit.\(UUID())"
            let operations = (0..<5).map { Self.holder(category, limit: 3, label: "\($0)") }
            let plain = OperationQueue()
            let conditional = ConditionalOperationQueue()
            for (index, operation) in operations.enumerated() {
                (index.isMultiple(of: 2) ? plain : conditional).addOperation(operation)
            }
            for operation in operations.prefix(3) { #expect(await operation.executing.wait()) }
            #expect(Self.executingCount(operations) == 3, "the first three hold it; the others wait")
            // The waiting ones hold no thread and no queue slot: the queues run other work.
            let other = ProbeOperation()
            let done = completionLatch([other])
            plain.addOperation(other)
            #expect(await done.wait())
            #expect(Self.executingCount(operations) == 3)
            operations[0].finish()
            #expect(await operations[3].executing.wait(), "a slot freed: the next in line executes")
            #expect(!operations[4].isExecuting)
            let finished = completionLatch(Array(operations.dropFirst()))
            for operation in operations.dropFirst() { operation.finish() }
            #expect(await finished.wait())
        }

        @Test func S19_waitingOperationsRunFirstComeFirstServed() async {
            let category = "S19.order.\(UUID())"
            let order = Recorder()
            let holders = (0..<2).map { Self.holder(category, limit: 2, label: "h\($0)", order: order) }
            let queue = ConditionalOperationQueue()
            queue.addOperations(holders, waitUntilFinished: false)
            for holder in holders { #expect(await holder.executing.wait()) }
            let waiters = (0..<6).map { Self.holder(category, limit: 2, label: "w\($0)", order: order) }
            for waiter in waiters { queue.addOperation(waiter) }  // one at a time: this is their order
            var running = holders
            for waiter in waiters {
                running.removeFirst().finish()
                #expect(await waiter.executing.wait())
                running.append(waiter)
            }
            let finished = completionLatch(running)
            for operation in running { operation.finish() }
            #expect(await finished.wait())
            #expect(Set(order.all.prefix(2)) == ["h0", "h1"], "the two holders run side by side")
            #expect(Array(order.all.dropFirst(2)) == (0..<6).map { "w\($0)" })
        }

        /// Operations needing several limited categories, in every combination, on both queue
        /// kinds: all finish (no deadlock), and no category ever has more holders than its limit.
        @Test func S19_severalCategoriesAreTakenAllAtOnceAndNeverDeadlock() async {
            let names = ["a", "b", "c"].map { "S19.several.\($0).\(UUID())" }
            let limits = [1, 2, 3]
            let occupancies = names.map { _ in Occupancy() }
            var operations: [Foundation.Operation] = []
            for index in 0..<300 {
                let chosen = (0..<3).filter { (index >> $0) & 1 == 1 || (index % 7 == $0) }
                let operation = S7MutualExclusivityTests.ExclusiveOperation(
                    [], occupancies: chosen.map { occupancies[$0] })
                for category in chosen {
                    operation.addCondition(
                        MutuallyExclusive(category: names[category], limit: limits[category]))
                }
                operations.append(operation)
            }
            let done = completionLatch(operations)
            let queues = [OperationQueue(), ConditionalOperationQueue()]
            for (index, operation) in operations.enumerated() { queues[index % 2].addOperation(operation) }
            #expect(await done.wait(seconds: 60))
            for (occupancy, limit) in zip(occupancies, limits) { #expect(occupancy.peak <= limit) }
        }

        @Test func S19_initCategoryIsALimitOfOneAndALimitIsKept() {
            let single = "S19.one.\(UUID())"
            #expect(MutuallyExclusive(category: single).limit == 1)
            let three = "S19.three.\(UUID())"
            #expect(MutuallyExclusive(category: three, limit: 3).limit == 3)
            #expect(MutuallyExclusive(category: three, limit: 3).limit == 3, "the same limit again is fine")
        }

        /// Making a condition writes nothing: two limits for one category made side by side do not
        /// trap, and the category keeps no limit until an operation asks for it.
        @Test func S19_makingAConditionRecordsNoLimit() {
            let category = "S19.made.\(UUID())"
            let conditions = [
                MutuallyExclusive(category: category, limit: 3),
                MutuallyExclusive(category: category, limit: 4),
            ]
            #expect(conditions.map(\.limit) == [3, 4])
            #expect(MutuallyExclusive(category: category).limit == 1, "no operation asked for it")
            #expect(ExclusivityController.shared.limit(of: category) == 1)
        }

        /// `init(category:)` states no limit: it takes the one an operation asked for the category
        /// with, and holds it as one of that many.
        @Test func S19_aConditionWithoutALimitTakesTheCategorysLimit() async {
            let category = "S19.unstated.\(UUID())"
            let queue = ConditionalOperationQueue()
            let holder = ClosureOperation<Void>(name: "holder") { $0.finish() }
            holder.addCondition(MutuallyExclusive(category: category, limit: 2))
            let held = completionLatch([holder])
            queue.addOperation(holder)
            #expect(await held.wait())
            #expect(MutuallyExclusive(category: category).limit == 2)
            let gate = Latch()
            let both = (0..<2).map { index in
                ClosureOperation<Void>(name: "plain \(index)") { operation in
                    Task {
                        _ = await gate.wait()
                        operation.finish()
                    }
                }
            }
            let done = completionLatch(both)
            for operation in both {
                operation.addCondition(MutuallyExclusive(category: category))
                queue.addOperation(operation)
            }
            await waitUntil(seconds: 10) { both.allSatisfy(\.isExecuting) }
            #expect(both.allSatisfy { $0.isExecuting }, "a limit of 2: both hold the category")
            gate.countDown()
            #expect(await done.wait())
        }

        #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))  // exit tests: 6.2; no iOS
            /// An operation asking for a category with another limit than the first one given stops
            /// the program naming it, the category and both limits (S13).
            @Test func S19_aDifferentLimitForACategoryTraps() async {
                let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                    await S19LimitTests.run(limits: [3, 4], category: "uploads")
                }
                let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
                #expect(
                    message.contains(
                        "'upload 2': MutuallyExclusive(category: \"uploads\", limit: 4): the category's limit is 3, "
                            + "the first one given; one category has one limit (S13, S19)"), "\(message)")
            }

            @Test func S19_aLimitOfOneForACategoryWithAnotherLimitTraps() async {
                let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                    await S19LimitTests.run(limits: [3, 1], category: "uploads")
                }
                let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
                #expect(
                    message.contains(
                        "'upload 2': MutuallyExclusive(category: \"uploads\", limit: 1): the category's limit is 3"
                    ), "\(message)")
            }

            @Test func S19_aLimitBelowOneTraps() async {
                let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                    _ = MutuallyExclusive(category: "uploads", limit: 0)
                }
                let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
                #expect(message.contains("a limit is at least 1"))
            }
        #endif

        /// Runs one operation after another on a queue, operation n asking for `category` with
        /// `limits[n - 1]`.
        static func run(limits: [Int], category: String) async {
            let queue = ConditionalOperationQueue()
            for (index, limit) in limits.enumerated() {
                let operation = ClosureOperation<Void>(name: "upload \(index + 1)") { $0.finish() }
                operation.addCondition(MutuallyExclusive(category: category, limit: limit))
                queue.addOperation(operation)
                await operation.untilFinished()
            }
        }
    }
}
