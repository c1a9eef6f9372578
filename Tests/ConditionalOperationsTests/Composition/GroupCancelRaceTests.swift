import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests.CompositionTests {
    /// A cancel of a `GroupOperation` and a child added at that moment: the cancel reaches the
    /// group's children in the group's own trip through its lock, so a child added once the group
    /// counts as cancelled is cancelled as it is added (S11).
    @Suite struct GroupCancelRaceTests {
        /// Cancels `group` and, from its `didCancel` observer (once the group counts as cancelled),
        /// adds a child; returns whether that child was cancelled when `addOperation` returned.
        static func cancelAddingAChild(_ group: GroupOperation) -> Bool {
            let added = HeldOperation()
            let cancelledWhenAdded = Box(false)
            group.addObserver(
                BlockObserver(didCancel: { group, _ in
                    (group as? GroupOperation)?.addOperation(added)
                    cancelledWhenAdded.value = added.isCancelled
                }))
            group.cancel()
            return cancelledWhenAdded.value
        }

        @Test func S11_aChildAddedAsARunningGroupIsCancelledIsCancelledWhenAdded() async {
            let running = HeldOperation()
            let group = GroupOperation(operations: [running])
            let done = completionLatch([group])
            OperationQueue().addOperation(group)
            #expect(await running.executing.wait())
            #expect(
                Self.cancelAddingAChild(group),
                "a child added once the group counted as cancelled ran uncancelled")
            #expect(await done.wait())
            #expect(group.children.allSatisfy { $0.isCancelled })
        }

        @Test func S11_aChildAddedAsAWaitingGroupIsCancelledIsCancelledWhenAdded() async {
            let group = GroupOperation(operations: [HeldOperation()])
            #expect(
                Self.cancelAddingAChild(group),
                "a child added once the group counted as cancelled waits uncancelled")
            let done = completionLatch([group])
            OperationQueue().addOperation(group)
            #expect(await done.wait())
            #expect(group.children.allSatisfy { $0.isCancelled })
        }
    }
}
