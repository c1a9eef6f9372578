import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests {
    /// S19 with groups (S7): a group holding a limited category takes one of its units, and its
    /// children needing that category run under that unit, one at a time; so at most `limit`
    /// units are in use at once, groups and outsiders together.
    @Suite(.serialized) struct S19GroupLimitTests {
        typealias Occupancy = S7MutualExclusivityTests.Occupancy

        /// Holds `category` (with `limit`) while it works about two milliseconds, counted in
        /// `occupancies` meanwhile.
        final class Work: ConditionalOperation, @unchecked Sendable {
            // stored state: lets only
            let occupancies: [Occupancy]

            init(_ category: String, limit: Int, occupancies: [Occupancy]) {
                self.occupancies = occupancies
                super.init()
                addCondition(MutuallyExclusive(category: category, limit: limit))
            }

            override func execute() {
                for occupancy in occupancies { occupancy.enter() }
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(2)) {
                    for occupancy in self.occupancies { occupancy.leave() }
                    self.finish()
                }
            }
        }

        @Test(arguments: [2, 3])
        func S19_aGroupAndItsChildrenTakeOneUnitBesideOutsiders(limit: Int) async {
            for round in 0..<5 {
                let category = "S19.group.\(limit).\(round).\(UUID())"
                let inUse = Occupancy()
                let siblings = Occupancy()
                let children = (0..<2 * limit).map { _ in
                    Work(category, limit: limit, occupancies: [inUse, siblings])
                }
                let group = GroupOperation(operations: children)
                group.addCondition(MutuallyExclusive(category: category, limit: limit))
                let outsiders = (0..<4 * limit).map { _ in Work(category, limit: limit, occupancies: [inUse])
                }
                let done = completionLatch(outsiders + [group])
                let queues = [OperationQueue(), ConditionalOperationQueue()]
                for (index, outsider) in outsiders.prefix(limit).enumerated() {
                    queues[index % 2].addOperation(outsider)
                }
                queues[round % 2].addOperation(group)
                for (index, outsider) in outsiders.dropFirst(limit).enumerated() {
                    queues[index % 2].addOperation(outsider)
                }
                #expect(await done.wait(seconds: 30), "no deadlock")
                #expect(
                    inUse.peak <= limit,
                    "outsiders and the children of the group, which share its unit, never exceed the limit")
                #expect(siblings.peak == 1, "the group's children take turns under its unit")
                #expect(ExclusivityController.shared.requestCount(for: category) == 0)
            }
        }
    }
}
