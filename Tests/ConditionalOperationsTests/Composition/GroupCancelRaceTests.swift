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

        /// The group's own cancel is told (its `didCancel` observers, its progress cancelled, which
        /// cancels its children's progress on another thread) before its children are cancelled
        /// one by one. A child that ends meanwhile frees its slot: no sibling may start in it,
        /// uncancelled, before the cancel reaches that sibling too (S4, S11).
        @Test func S11_aSlotFreedWhileTheGroupsCancelIsToldStartsNoSiblingUncancelled() async {
            for _ in 0..<20 {
                let holder = HeldOperation()
                let sibling = HeldOperation()
                let group = GroupOperation(operations: [holder, sibling])
                group.maxConcurrentChildren = 1
                let queueHeldWhenTold = Box(false)
                group.addObserver(
                    BlockObserver(didCancel: { _, _ in
                        let childrenQueue = group.withOwnLock { group.lockedGroup.queue }
                        queueHeldWhenTold.value = childrenQueue?.isSuspended ?? false
                        holder.cancel()  // ends it: its slot is free
                    }))
                let done = completionLatch([holder, sibling, group])
                OperationQueue().addOperation(group)
                #expect(await holder.executing.wait())
                group.cancel()
                #expect(await done.wait())
                #expect(
                    queueHeldWhenTold.value, "the children's queue could start a child as the cancel was told"
                )
                #expect(sibling.isCancelled)
                #expect(
                    sibling.executing.remaining == 1,
                    "a sibling executed in the slot freed during the group's cancel")
            }
        }
    }
}
