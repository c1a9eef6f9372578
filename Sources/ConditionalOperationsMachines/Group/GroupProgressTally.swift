import Foundation

/// The units of a `GroupOperation`'s progress, kept under the group's own operation lock once
/// its progress was asked for: one unit per child.
///
/// A `ConditionalOperation` child whose progress the group made counts through that progress,
/// added as a child of the group's (so a child reporting steps moves the group's fraction too);
/// any other child (a plain `Operation`, or a child whose progress someone else asked for first
/// and may have given a parent of their own) counts one unit when it finishes.
///
/// A child's progress is added outside the lock, so the child may finish meanwhile: it is
/// *reserved* until then, and the tally remembers whether it finished, to count it itself if the
/// group could not adopt its progress. The counts reach the `Progress` through one writer at a
/// time (whoever changed them while nobody wrote), and never under the lock. The group's end
/// writes its final counts whoever writes meanwhile: a write never lowers the total, so the older
/// counts of a writer still writing cannot undo them.
///
/// A group without children counts one unit, as any operation does: swift-corelibs-foundation
/// traps on a total lowered to 0 (its fractions then all have the denominator 0, and adding two
/// of them is a precondition failure), and every later write to such a progress traps too.
package struct GroupProgressTally {
    package let progress: Progress
    /// Every child the group knows of: the progress's total, once there is one.
    private var total: Int64 = 0
    private var writtenTotal: Int64 = -1
    /// Units of finished children that count themselves, not yet written.
    private var unwrittenCompleted: Int64 = 0
    private var isWriting = false
    /// Children whose progress is being adopted, and whether each finished meanwhile.
    private var reserved: [ObjectIdentifier: Bool] = [:]
    /// Children whose progress is a child of the group's: they count themselves.
    private var adopted: Set<ObjectIdentifier> = []
    /// Children counted and not finished: a child waiting for the group is told of again when
    /// the group hands it to its queue.
    private var known: Set<ObjectIdentifier> = []

    package init(progress: Progress) {
        self.progress = progress
    }

    /// What the writer writes: the total, and how many units to add to the completed count.
    package struct Write {
        package let progress: Progress
        package let total: Int64
        package let completed: Int64
    }

    /// The group knows of `child` (`adopts`: it will try to adopt the child's progress).
    /// Returns `false` if it knew already.
    @discardableResult
    package mutating func add(_ child: ObjectIdentifier, adopts: Bool) -> Bool {
        guard known.insert(child).inserted else { return false }
        total += 1
        if adopts { reserved[child] = false }
        return true
    }

    /// `child` had finished before the progress was made.
    package mutating func addFinished() {
        total += 1
        unwrittenCompleted += 1
    }

    /// `child` finished: counted unless its own progress counts it.
    package mutating func finished(_ child: ObjectIdentifier) {
        guard known.remove(child) != nil else { return }
        if adopted.remove(child) != nil { return }
        if reserved[child] != nil {
            reserved[child] = true
            return
        }
        unwrittenCompleted += 1
    }

    /// The group tried to adopt `child`'s progress; `adopted` tells whether it did.
    package mutating func resolve(_ child: ObjectIdentifier, adopted: Bool) {
        guard let finished = reserved.removeValue(forKey: child) else { return }
        if adopted {
            // A child that finished already completed its progress, which counts it.
            if !finished { self.adopted.insert(child) }
        } else if finished {
            unwrittenCompleted += 1
        }
    }

    /// The caller becomes the writer if nobody writes and something changed: it writes the
    /// result, then calls ``nextWrite()`` until that returns `nil`.
    package mutating func beginWrite() -> Write? {
        guard !isWriting else { return nil }
        return nextWrite()
    }

    /// The group finished: what no writer wrote yet, written by the thread that ends the group,
    /// while a writer may still be writing older counts (a write never lowers a total). The units
    /// of children whose progress counts itself are not written: Foundation adds them as those
    /// progresses complete, and the group's own finish completes what is left.
    package func finalWrite() -> Write {
        Write(progress: progress, total: max(total, 1), completed: unwrittenCompleted)
    }

    /// The writer's next write, or `nil`: it stops.
    package mutating func nextWrite() -> Write? {
        let units = max(total, 1)
        guard units != writtenTotal || unwrittenCompleted > 0 else {
            isWriting = false
            return nil
        }
        isWriting = true
        defer {
            writtenTotal = units
            unwrittenCompleted = 0
        }
        return Write(progress: progress, total: units, completed: unwrittenCompleted)
    }
}
