import ConditionalOperationsMachines
import Foundation

/// A group's ``ConditionalOperation/progress`` adds up its children's: each child is one unit of
/// it, and the group's `totalUnitCount` grows with every child added (also while it runs, and
/// operations its children produce). Nothing of this happens before the group's progress is asked
/// for; children added before that are counted at that moment. A group without children counts one
/// unit, as any operation does. Asked for the first time once the group finished, it counts every
/// child, done (S31).
///
/// ```swift
/// let group = GroupOperation(operations: [download, unzip, index])
/// progressView.observedProgress = group.progress  // 3 units; a Cancel button cancels the group
/// queue.addOperation(group)
/// ```
///
/// A ``ConditionalOperation`` child's own progress becomes a child of the group's, so a child
/// reporting steps moves the group's fraction as it works: its progress then belongs to the
/// group, so do not give it another parent. A child whose progress was asked for before the group
/// counted it (which may have a parent already), and any other `Operation`, counts one unit when it
/// finishes.
extension GroupOperation {
    /// The group's progress was just made (``ConditionalOperation/makeProgress()``).
    func progressWasMade(_ progress: Progress) {
        let (children, write) = withOwnLock { lockedGroup.makeProgress(progress) }
        if let write { writeProgress(write) }
        for child in children { adoptProgress(of: child) }
    }

    /// `child` was added, or the queue is about to add it: the group's progress (if made) counts it.
    func countProgress(of child: Foundation.Operation, adopt: Bool, write: GroupProgressTally.Write?) {
        if let write { writeProgress(write) }
        if adopt, let child = child as? ConditionalOperation { adoptProgress(of: child) }
    }

    /// Makes `child`'s progress a child of the group's, if the group is the first to ask for it.
    private func adoptProgress(of child: ConditionalOperation) {
        let (childProgress, made) = child.makeProgress()
        var adopted = false
        if made, let parent = withOwnLock({ lockedGroup.madeProgress }) {
            // A finished child's progress is complete, and the group may have completed its own
            // meanwhile (with the same lock): added now, it would count a second time, past the
            // total. Its unit is the tally's instead.
            adopted = ProgressWrites.perform {
                guard !child.isFinished else { return false }
                parent.addChild(childProgress, withPendingUnitCount: 1)
                return true
            }
        }
        if let write = withOwnLock({ lockedGroup.progressResolved(ObjectIdentifier(child), adopted: adopted) }
        ) {
            writeProgress(write)
        }
    }

    /// Writes the counts, and whatever changed meanwhile, as the one writer (outside the lock).
    func writeProgress(_ first: GroupProgressTally.Write) {
        var write: GroupProgressTally.Write? = first
        while let next = write {
            writeCounts(next)
            write = withOwnLock { lockedGroup.nextProgressWrite() }
        }
    }

    /// Writes one write's counts, also beside the one writer: the group's end writes its final
    /// counts (``GroupProgressTally/finalWrite()``) while a writer may still write older ones.
    func writeCounts(_ write: GroupProgressTally.Write) {
        ProgressWrites.perform {
            let progress = write.progress
            // Never lower: the group's end may have written its final total already.
            if progress.totalUnitCount < write.total { progress.totalUnitCount = write.total }
            if write.completed > 0 {
                // Never past the total: the group's own finish may have completed it already.
                progress.completedUnitCount = min(
                    progress.completedUnitCount + write.completed, progress.totalUnitCount)
            }
        }
    }
}
