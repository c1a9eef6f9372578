import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests.CompositionTests {
    /// S7 in groups: a child needing a category its group (or an enclosing group) holds does not
    /// deadlock; its siblings still exclude each other; every other holder waits for the whole group.
    @Suite struct S7GroupExclusivityTests {
        typealias Occupancy = ConditionalOperationsTests.S7MutualExclusivityTests.Occupancy
        typealias ExclusiveOperation = ConditionalOperationsTests.S7MutualExclusivityTests.ExclusiveOperation

        static func exclusiveGroup(_ category: String, children: [Foundation.Operation]) -> GroupOperation {
            let group = GroupOperation(operations: children)
            group.addCondition(MutuallyExclusive(category: category))
            return group
        }

        @Test func S7_aChildNeedingItsGroupsCategoryDoesNotDeadlockAndSiblingsStillExcludeEachOther() async {
            let category = "S7.group.siblings"
            let inside = Occupancy()
            let children = (0..<20).map { _ in ExclusiveOperation([category], occupancies: [inside]) }
            let group = Self.exclusiveGroup(category, children: children)
            let done = completionLatch([group])
            ConditionalOperationQueue().addOperation(group)
            #expect(await done.wait(), "the children of a group holding their category ran")
            #expect(children.allSatisfy { $0.isFinished })
            #expect(inside.peak == 1)
            #expect(ExclusivityController.shared.requestCount(for: category) == 0)
            #expect(
                ExclusivityController.shared.requestCount(
                    for: ExclusivityController.scopedCategory(category, in: group)) == 0)
        }

        /// A category is its name, whatever limit a condition states: a child stating the limit
        /// of the category its group holds without stating one is scoped to the group (before the
        /// limit travelled in the key, two spellings of one category were two categories here, and
        /// the child waited for the group that waited for it).
        @Test func S7_aChildStatingTheLimitOfItsGroupsCategoryRunsInTheGroupsScope() async {
            let category = "S7.group.stated.\(UUID())"
            let children = (0..<3).map { index in
                let child = ClosureOperation<Void>(name: "child \(index)") { $0.finish() }
                child.addCondition(MutuallyExclusive(category: category, limit: 1))
                return child
            }
            let group = Self.exclusiveGroup(category, children: children)
            let done = completionLatch([group])
            ConditionalOperationQueue().addOperation(group)
            #expect(await done.wait(seconds: 10), "the children ran in the group's scope")
            #expect(children.allSatisfy { $0.isFinished && !$0.isCancelled })
            #expect(
                ExclusivityController.scoped(children[0].exclusivityScope.categories, under: group)
                    == [ExclusivityController.scopedCategory(category, in: group)])
        }

        @Test func S7_everyOtherHolderOfTheCategoryWaitsForTheWholeGroup() async {
            let category = "S7.group.outside"
            let order = Recorder()
            let occupancy = Occupancy()
            let gate = ProbeOperation(.never)  // keeps the group running until the outsider asked
            let children: [Foundation.Operation] = [
                gate, ExclusiveOperation([category], occupancies: [occupancy], order: order, label: "child"),
            ]
            let group = Self.exclusiveGroup(category, children: children)
            group.addObserver(BlockObserver(didFinish: { _, _ in order.record("group finished") }))
            let outsider = ExclusiveOperation(
                [category], occupancies: [occupancy], order: order, label: "outsider")
            let queue = OperationQueue()
            queue.addOperation(group)
            #expect(await gate.executing.wait())
            let outsiderDone = completionLatch([outsider])
            queue.addOperation(outsider)
            await waitUntil(seconds: 10) { outsider.state == .evaluatingConditions }
            #expect(outsider.state == .evaluatingConditions, "it waits for the category")
            gate.finish()
            #expect(await outsiderDone.wait())
            #expect(order.all == ["child", "group finished", "outsider"])
            #expect(occupancy.peak == 1)
        }

        @Test func S7_nestedGroupsScopeTheCategoryAtEachLevel() async {
            let category = "S7.group.nested"
            let innerOccupancy = Occupancy()
            let outerOccupancy = Occupancy()
            let innerChildren = (0..<5).map { _ in
                ExclusiveOperation([category], occupancies: [innerOccupancy, outerOccupancy])
            }
            let inner = Self.exclusiveGroup(category, children: innerChildren)
            let outerChildren = (0..<5).map { _ in
                ExclusiveOperation([category], occupancies: [outerOccupancy])
            }
            // A child of the inner group with no category of its own, holding one of the outer's.
            let plain = GroupOperation(operations: [
                ExclusiveOperation([category], occupancies: [outerOccupancy])
            ])
            let outer = Self.exclusiveGroup(category, children: [inner, plain] + outerChildren)
            let done = completionLatch([outer])
            OperationQueue().addOperation(outer)
            #expect(await done.wait(), "no level deadlocked")
            #expect(innerOccupancy.peak == 1)
            #expect(outerOccupancy.peak == 1, "the inner group counts as one holder among its siblings")
            #expect(
                ExclusivityController.shared.requestCount(
                    for: ExclusivityController.scopedCategory(category, in: outer)) == 0)
            #expect(
                ExclusivityController.shared.requestCount(
                    for: ExclusivityController.scopedCategory(category, in: inner)) == 0)
        }

        @Test func S7_aChildAdmittedBeforeItsGroupExecutesDoesNotDeadlockEither() async {
            let category = "S7.group.early"
            let childDependency = ProbeOperation(.never)
            let child = ProbeOperation()
            child.addCondition(MutuallyExclusive(category: category))
            child.addDependency(childDependency)
            let blocker = ProbeOperation(.never)
            let group = Self.exclusiveGroup(category, children: [child])
            group.addDependency(blocker)
            let done = completionLatch([group])
            let queue = OperationQueue()
            queue.add([childDependency, blocker, group])
            #expect(await childDependency.executing.wait())
            childDependency.finish()
            await waitUntil { childDependency.isFinished }
            _ = child.isReady  // an isReady query admits it now, as Foundation's may
            await waitUntil(seconds: 10) { child.state == .ready }
            #expect(child.state == .ready, "admitted, its category acquired, before the group executes")
            #expect(await blocker.executing.wait())
            blocker.finish()
            #expect(await done.wait(seconds: 10), "the group got its category and ran the child")
            #expect(child.executions.current == 1)
        }

        @Test func S7_aChildNeedingACategoryItsGroupDoesNotHoldCompetesWithEveryone() async {
            let category = "S7.group.unheld"
            let holder = ProbeOperation(.never)
            holder.addCondition(MutuallyExclusive(category: category))
            let queue = OperationQueue()
            queue.addOperation(holder)
            #expect(await holder.executing.wait())
            let child = ProbeOperation()
            child.addCondition(MutuallyExclusive(category: category))
            let group = GroupOperation(operations: [child])
            queue.addOperation(group)
            await waitUntil(seconds: 10) { child.state == .evaluatingConditions }
            #expect(child.state == .evaluatingConditions, "it waits for the category held outside")
            #expect(ExclusivityController.shared.requestCount(for: category) == 2)
            holder.finish()
            await group.untilFinished()
            #expect(child.executions.current == 1)
        }
    }
}
