import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests.CompositionTests {
    /// S11 (added): `children`, `maxConcurrentChildren` and `child(_:didFinishWith:)`.
    @Suite struct S11GroupControlsTests {
        typealias Occupancy = ConditionalOperationsTests.S7MutualExclusivityTests.Occupancy

        /// Drops the errors of children named "ignored", replaces those of children named
        /// "mapped" by `TestError(99)`, and records which thread asked and whether it could take
        /// the group's lock (it is called outside every lock).
        final class FilteringGroup: GroupOperation, @unchecked Sendable {  // stored state: lets only
            let asked = Recorder()

            override func child(_ child: Foundation.Operation, didFinishWith errors: [any Error])
                -> [any Error]
            {
                asked.record("\(child.name ?? "?"):\(children.count)")  // takes the group's lock
                switch child.name {
                case "ignored": return []
                case "mapped": return errors.isEmpty ? [] : [TestError(99)]
                default: return errors
                }
            }
        }

        static func named(_ operation: ProbeOperation, _ name: String) -> ProbeOperation {
            operation.name = name
            return operation
        }

        @Test func S11_childrenListsEveryChildAddedInOrder() async {
            let first = Self.named(ProbeOperation(), "first")
            let second = Self.named(ProbeOperation(), "second")
            let producer = ClosureOperation<Void>(name: "producer") { operation in
                operation.produceOperation(BlockOperation {})
                operation.finish()
            }
            let group = GroupOperation(operations: [first, second])
            group.addOperation(producer)
            #expect(group.children.map(\.name) == ["first", "second", "producer"])
            let done = completionLatch([group])
            OperationQueue().addOperation(group)
            #expect(await done.wait())
            let later = Self.named(ProbeOperation(), "later")
            group.addOperation(later)  // once finished: cancelled and run, and listed
            #expect(group.children.count == 5, "the produced operation is a child too")
            #expect(group.children.prefix(3).map(\.name) == ["first", "second", "producer"])
            #expect(group.children[3] is BlockOperation)
            #expect(group.children.last === later)
        }

        @Test func S11_maxConcurrentChildrenBoundsHowManyExecuteAtOnce() async {
            let occupancy = Occupancy()
            let children = (0..<12).map { _ in
                OccupyingChild(occupancy: occupancy)
            }
            let group = GroupOperation(operations: children)
            group.maxConcurrentChildren = 2
            #expect(group.maxConcurrentChildren == 2)
            let done = completionLatch([group])
            OperationQueue().addOperation(group)
            #expect(await done.wait())
            #expect(occupancy.peak <= 2)
            #expect(children.allSatisfy { $0.isFinished })
        }

        @Test func S11_maxConcurrentChildrenDefaultsToTheSystemsChoice() {
            #expect(
                GroupOperation().maxConcurrentChildren == OperationQueue.defaultMaxConcurrentOperationCount)
        }

        @Test func S11_childDidFinishWithKeepsDropsOrTransformsAChildsErrors() async {
            let group = FilteringGroup(operations: [
                Self.named(ProbeOperation(.finishWith([TestError(1)])), "ignored"),
                Self.named(ProbeOperation(.finishWith([TestError(2)])), "mapped"),
                Self.named(ProbeOperation(.finishWith([TestError(3)])), "kept"),
                Self.named(ProbeOperation(), "fine"),
            ])
            let done = completionLatch([group])
            OperationQueue().addOperation(group)
            #expect(await done.wait())
            #expect(testErrorIDs(group.errors) == [3, 99])
            #expect(group.failed)
            let asked = group.asked.all.map { $0.split(separator: ":")[0] }.sorted()
            #expect(asked == ["fine", "ignored", "kept", "mapped"], "called once per finished child")
        }

        @Test func S11_aGroupWhoseChildFailuresAreAllDroppedSucceeds() async {
            let group = FilteringGroup(operations: [
                Self.named(ProbeOperation(.finishWith([TestError(1)])), "ignored")
            ])
            let done = completionLatch([group])
            OperationQueue().addOperation(group)
            #expect(await done.wait())
            #expect(group.errors.isEmpty && !group.failed)
        }
    }
}

/// Enters an occupancy when it executes and leaves it when it finishes, later, from another thread.
final class OccupyingChild: ConditionalOperation, @unchecked Sendable {  // stored state: lets only
    let occupancy: ConditionalOperationsTests.S7MutualExclusivityTests.Occupancy

    init(occupancy: ConditionalOperationsTests.S7MutualExclusivityTests.Occupancy) {
        self.occupancy = occupancy
        super.init()
    }

    override func execute() {
        occupancy.enter()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.005) {
            self.occupancy.leave()
            self.finish()
        }
    }
}
