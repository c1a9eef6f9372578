import ConditionalOperationsMachines
import ConditionalOperationsTesting
import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests {
    /// S26: an `ExclusivityCategory` is a category of its own, whatever its name, with its own
    /// limit; diagnostics show its name; it works inside `AllOf`/`&&` and in groups as a string
    /// category does.
    @Suite struct S26CategoryValueTests {
        typealias Occupancy = S7MutualExclusivityTests.Occupancy
        typealias LoggerCollector = LoggerTests.Collector

        /// A probe that executes until finished from outside, with `condition`.
        static func holder(_ condition: some OperationCondition, name: String? = nil) -> ProbeOperation {
            let operation = ProbeOperation(.never)
            operation.name = name
            operation.addCondition(condition)
            return operation
        }

        /// Enters `occupancy` as it executes and leaves it as it finishes, later, from another thread.
        final class OccupyingOperation: ConditionalOperation, @unchecked Sendable {
            // stored state: lets only
            let occupancy: Occupancy

            init(_ condition: some OperationCondition, occupancy: Occupancy) {
                self.occupancy = occupancy
                super.init()
                addCondition(condition)
            }

            override func execute() {
                occupancy.enter()
                DispatchQueue.global().async {
                    self.occupancy.leave()
                    self.finish()
                }
            }
        }

        @Test func S26_aStringCategoryWithAReservedCharacterIsNeverReadAsAKey() {
            // U+001F marks a group's scoped category (limit 1) and U+001E an object's key (its
            // limit after the name): a string category holding them keeps its own limit.
            let scopedLooking = MutuallyExclusive(category: "s26-a\u{1F}b", limit: 3)
            #expect(scopedLooking.category == "s26-a b")
            #expect(scopedLooking.limit == 3)
            let keyLooking = MutuallyExclusive(category: "s26-x\u{1E}1\u{1E}2", limit: 3)
            #expect(keyLooking.category == "s26-x 1 2")
            #expect(keyLooking.limit == 3)
        }

        @Test func S26_twoObjectsWithTheSameNameDoNotExcludeEachOther() async {
            let name = "S26.same.\(UUID())"
            let first = ExclusivityCategory(name)
            let second = ExclusivityCategory(name)
            let string = name  // a string category of that name is a third one
            let holders = [
                Self.holder(MutuallyExclusive(first)), Self.holder(MutuallyExclusive(second)),
                Self.holder(MutuallyExclusive(category: string)),
            ]
            let done = completionLatch(holders)
            let queue = ConditionalOperationQueue()
            for holder in holders { queue.addOperation(holder) }
            for holder in holders { #expect(await holder.executing.wait(), "each holds its own category") }
            #expect(holders.allSatisfy { $0.isExecuting })
            for holder in holders { holder.finish() }
            #expect(await done.wait())
        }

        @Test func S26_operationsHoldingOneObjectExcludeEachOtherAcrossQueues() async {
            let category = ExclusivityCategory("sync")
            let first = Self.holder(MutuallyExclusive(category))
            let second = Self.holder(MutuallyExclusive(category))
            let done = completionLatch([first, second])
            OperationQueue().addOperation(first)
            #expect(await first.executing.wait())
            ConditionalOperationQueue().addOperation(second)
            await waitUntil(seconds: 10) {
                ExclusivityController.shared.requestCount(for: category.key) == 2
            }
            #expect(second.state == .evaluatingConditions, "it waits for the category")
            first.finish()
            #expect(await second.executing.wait())
            second.finish()
            #expect(await done.wait())
        }

        @Test func S26_theLimitIsTheObjects() async {
            let category = ExclusivityCategory("uploads", limit: 2)
            #expect(MutuallyExclusive(category).limit == 2)
            #expect(category.limit == 2)
            let occupancy = Occupancy()
            let operations = (0..<12).map { _ in
                OccupyingOperation(MutuallyExclusive(category), occupancy: occupancy)
            }
            let done = completionLatch(operations)
            let queues = [OperationQueue(), ConditionalOperationQueue()]
            for (index, operation) in operations.enumerated() { queues[index % 2].addOperation(operation) }
            #expect(await done.wait())
            #expect(occupancy.peak <= 2)
            #expect(occupancy.peak >= 1)

            let holders = (0..<3).map { _ in Self.holder(MutuallyExclusive(category)) }
            let held = completionLatch(holders)
            for holder in holders { ConditionalOperationQueue().addOperation(holder) }
            #expect(await holders[0].executing.wait())
            #expect(await holders[1].executing.wait())
            await waitUntil(seconds: 10) { ExclusivityController.shared.requestCount(for: category.key) == 3 }
            #expect(!holders[2].isExecuting, "a third waits: the object's limit is 2")
            holders[0].finish()
            #expect(await holders[2].executing.wait())
            for holder in holders.dropFirst() { holder.finish() }
            #expect(await held.wait())
        }

        @Test func S26_twoObjectsWithTheSameNameAndDifferentLimitsDoNotTrap() async {
            // With strings, this is S13 misuse: "uploads" would have two limits.
            let two = ExclusivityCategory("S26.uploads", limit: 2)
            let five = ExclusivityCategory("S26.uploads", limit: 5)
            let string = MutuallyExclusive(category: "S26.uploads", limit: 3)
            #expect(MutuallyExclusive(two).limit == 2)
            #expect(MutuallyExclusive(five).limit == 5)
            #expect(string.limit == 3)
            #expect(MutuallyExclusive(two).category == "S26.uploads")
            #expect(MutuallyExclusive(two).name == "MutuallyExclusive<S26.uploads>")
            let operations = [
                ProbeOperation(), ProbeOperation(), ProbeOperation(),
            ]
            operations[0].addCondition(MutuallyExclusive(two))
            operations[1].addCondition(MutuallyExclusive(five))
            operations[2].addCondition(string)
            let done = completionLatch(operations)
            ConditionalOperationQueue().add(operations)
            #expect(await done.wait())
            #expect(operations.allSatisfy { $0.executions.current == 1 })
        }

        @Test func S26_diagnosticsShowTheName() async {
            let category = ExclusivityCategory("reports")
            let collector = LoggerCollector()
            let holder = Self.holder(MutuallyExclusive(category), name: "holder")
            let waiter = Self.holder(MutuallyExclusive(category), name: "waiter")
            waiter.addLogger(collector)
            let done = completionLatch([holder, waiter])
            let queue = ConditionalOperationQueue()
            queue.addOperation(holder)
            #expect(await holder.executing.wait())
            queue.addOperation(waiter)
            await waitUntil(seconds: 10) { ExclusivityController.shared.requestCount(for: category.key) == 2 }
            guard case .categories(let waits, _) = waiter.diagnosis.reason else {
                Issue.record("expected a category wait, got \(waiter.diagnosis)")
                return
            }
            #expect(waits == [.init(category: "reports", holder: "ProbeOperation 'holder'", ahead: 1)])
            #expect(
                waiter.diagnosis.description.contains("'reports' (held by ProbeOperation 'holder', 1 ahead)"))
            let node = OperationGraph([waiter]).nodes.first { $0.name == "ProbeOperation 'waiter'" }
            #expect(node?.lines.contains("categories: reports") == true)
            await waitUntil(seconds: 10) {
                collector.lines(of: waiter).contains("waiting for exclusivity: reports")
            }
            #expect(collector.lines(of: waiter).contains("waiting for exclusivity: reports"))
            holder.finish()
            #expect(await waiter.executing.wait())
            waiter.finish()
            #expect(await done.wait())
            // A logger hears its records on a thread of its own: wait for the one asked about.
            await waitUntil(seconds: 10) {
                collector.lines(of: waiter).contains { $0.hasPrefix("acquired reports after ") }
            }
            #expect(collector.lines(of: waiter).contains { $0.hasPrefix("acquired reports after ") })
            #expect("\(category)" == "reports")
        }

        @Test func S26_itWorksInsideAllOfAndAnd() async {
            let category = ExclusivityCategory("combined")
            let sameName = ExclusivityCategory("combined")
            let allOf = Self.holder(AllOf([MutuallyExclusive(category), BlockCondition { true }]))
            let and = Self.holder(BlockCondition { true } && MutuallyExclusive(category))
            let other = Self.holder(MutuallyExclusive(sameName) && BlockCondition { true })
            let done = completionLatch([allOf, and, other])
            let queue = ConditionalOperationQueue()
            queue.addOperation(allOf)
            #expect(await allOf.executing.wait())
            queue.addOperation(and)
            queue.addOperation(other)
            #expect(await other.executing.wait(), "another object with the same name is another category")
            await waitUntil(seconds: 10) { ExclusivityController.shared.requestCount(for: category.key) == 2 }
            #expect(and.state == .evaluatingConditions, "it waits for the category inside &&")
            allOf.finish()
            #expect(await and.executing.wait())
            and.finish()
            other.finish()
            #expect(await done.wait())
        }

        @Test func S26_aGroupHoldingTheObjectLetsItsChildrenShareItAndOutsidersWait() async {
            let category = ExclusivityCategory("group", limit: 2)
            let inside = Occupancy()
            let children = (0..<10).map { _ in
                OccupyingOperation(MutuallyExclusive(category), occupancy: inside)
            }
            let gate = ProbeOperation(.never)  // keeps the group running until the outsiders asked
            let group = GroupOperation(operations: children + [gate])
            group.addCondition(MutuallyExclusive(category))
            let outsiders = (0..<2).map { _ in Self.holder(MutuallyExclusive(category)) }
            let done = completionLatch([group] + outsiders)
            let queue = ConditionalOperationQueue()
            queue.addOperation(group)
            #expect(await gate.executing.wait())
            for outsider in outsiders { queue.addOperation(outsider) }
            #expect(await outsiders[0].executing.wait(), "the group takes one unit of two")
            await waitUntil(seconds: 10) { ExclusivityController.shared.requestCount(for: category.key) == 3 }
            #expect(!outsiders[1].isExecuting, "the group and one outsider hold both units")
            gate.finish()
            await waitUntil(seconds: 10) { children.allSatisfy(\.isFinished) }
            #expect(
                children.allSatisfy { $0.isFinished }, "the children of a group holding their category ran")
            #expect(inside.peak == 1, "siblings share the group's one unit, one at a time")
            #expect(await outsiders[1].executing.wait(), "the group gave its unit back")
            for outsider in outsiders { outsider.finish() }
            #expect(await done.wait())
        }

        @Test func S26_shortLivedCategoriesLeaveNothingBehind() async {
            var keys: [String] = []
            var operations: [ConditionalOperation] = []
            for index in 0..<50 {
                let category = ExclusivityCategory("short \(index)", limit: index % 3 + 1)
                keys.append(category.key)
                for _ in 0..<2 {
                    let operation = ProbeOperation(.finishLater)
                    operation.addCondition(MutuallyExclusive(category))
                    operations.append(operation)
                }
            }
            let done = completionLatch(operations)
            ConditionalOperationQueue().add(operations)
            #expect(await done.wait())
            await waitUntil(seconds: 10) { !keys.contains { ExclusivityController.shared.isTracking($0) } }
            #expect(!keys.contains { ExclusivityController.shared.isTracking($0) })
            #expect(Set(keys).count == 50, "every object is a category of its own")
        }

        @Test func S26_aKeyIsTheObjectsAndShowsItsName() {
            let plain = ExclusivityCategory("plain", limit: 4)
            let odd = ExclusivityCategory("odd\u{1E}name\u{1F}", limit: 2)
            #expect(CategoryKey.need(of: plain.key) == .category(line: plain.key, limit: .own(4)))
            #expect(CategoryKey.need(of: odd.key) == .category(line: odd.key, limit: .own(2)))
            #expect(
                CategoryKey.need(of: "plain") == .category(line: "plain", limit: .unstated),
                "a string category has no limit of its own")
            #expect(
                CategoryKey.need(
                    of: MutuallyExclusive(category: "plain", limit: 3).mutuallyExclusiveCategories.first!)
                    == .category(line: "plain", limit: .stated(3)),
                "a stated limit: the same line as the name's")
            let rate = RateLimit("plain", permits: 2, per: .seconds(1)).mutuallyExclusiveCategories.first!
            #expect(
                CategoryKey.need(of: rate)
                    == .rate(
                        line: Substring(CategoryKey.rateLine(named: "plain")), permits: 2,
                        interval: 1_000_000_000),
                "a rate limit: a line of its own")
            #expect(ExclusivityController.unscopedName(plain.key) == "plain")
            #expect(ExclusivityController.unscopedName(odd.key) == "odd name ")
            #expect(odd.name == "odd\u{1E}name\u{1F}")
            #expect(plain.key != ExclusivityCategory("plain", limit: 4).key)
        }

        #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))  // exit tests: 6.2; no iOS
            @Test func S26_aLimitBelowOneTraps() async {
                let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                    _ = ExclusivityCategory("uploads", limit: 0)
                }
                let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
                #expect(message.contains("ExclusivityCategory(\"uploads\", limit: 0): a limit is at least 1"))
            }
        #endif
    }
}
