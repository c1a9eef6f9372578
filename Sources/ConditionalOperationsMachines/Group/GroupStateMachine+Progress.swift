import Foundation

/// The events of a `GroupOperation`'s progress: none of them happens before its progress is
/// asked for, and each one afterwards is a check of ``GroupStateMachine/progress`` inside a
/// lock the group takes anyway.
extension GroupStateMachine {
    /// The group's progress was made: which children's progress to try to adopt, and the first
    /// write (``GroupProgressTally/beginWrite()``). Once every child finished, that write counts
    /// them all, done (S31).
    package mutating func makeProgress(
        _ progress: Progress
    ) -> (adopt: [Adoptable], write: GroupProgressTally.Write?) {
        var tally = GroupProgressTally(progress: progress)
        let children: [Foundation.Operation]
        switch state {
        case .waiting(let waiting):
            // Nothing ran yet: every child counts from zero.
            children = waiting.children
        case .running(let running):
            // Those finished already count as done; the others are still on the queue.
            for _ in 0..<running.finishedChildren { tally.addFinished() }
            children = Array(running.added.values)
        case .finished:
            // Every child finished: one unit each, all done, however late the progress is made.
            let units = Int64(max(self.children.all.count, 1))
            return ([], GroupProgressTally.Write(progress: progress, total: units, completed: units))
        case .modifying:
            fatalError("GroupStateMachine: makeProgress in state modifying")
        }
        var adopt: [Adoptable] = []
        for child in children {
            let conditional = child as? Adoptable
            tally.add(ObjectIdentifier(child), adopts: conditional != nil)
            if let conditional { adopt.append(conditional) }
        }
        let write = tally.beginWrite()
        self.progress = tally
        return (adopt, write)
    }

    /// `child` was added to the group, or its queue is about to add it: one more unit, once.
    /// Returns whether to try to adopt the child's progress (now, before the queue has it, so
    /// that it cannot finish meanwhile) and the write.
    package mutating func progressChildAdded(_ child: Foundation.Operation) -> (
        adopt: Bool, write: GroupProgressTally.Write?
    ) {
        guard progress != nil else { return (false, nil) }
        switch state {
        case .waiting, .running:
            // Counted once, whether it waited for the group or came later.
            let adopts = child is Adoptable
            guard progress!.add(ObjectIdentifier(child), adopts: adopts) else { return (false, nil) }
            return (adopts, progress!.beginWrite())
        case .finished, .modifying:
            // Run late, cancelled: no longer the group's.
            return (false, nil)
        }
    }

    /// `child` finished (before ``childFinished(_:errors:)`` counts it).
    package mutating func progressChildFinished(_ child: Foundation.Operation) -> GroupProgressTally.Write? {
        guard isRunning, progress != nil else { return nil }
        progress!.finished(ObjectIdentifier(child))
        return progress!.beginWrite()
    }

    /// The group tried to adopt `child`'s progress.
    package mutating func progressResolved(_ child: ObjectIdentifier, adopted: Bool) -> GroupProgressTally
        .Write?
    {
        guard progress != nil else { return nil }
        progress!.resolve(child, adopted: adopted)
        return progress!.beginWrite()
    }

    /// The writer wrote; its next write, if the counts changed meanwhile.
    package mutating func nextProgressWrite() -> GroupProgressTally.Write? {
        progress?.nextWrite()
    }
}
