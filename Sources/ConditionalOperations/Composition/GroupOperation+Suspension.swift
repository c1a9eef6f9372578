import ConditionalOperationsMachines
import Foundation

extension GroupOperation {
    /// While `true`, the group starts no child that was not executing yet (S30); `false` (the
    /// default) starts them again, within ``maxConcurrentChildren``.
    ///
    /// ```swift
    /// let uploads = GroupOperation(operations: files.map { UploadOperation(file: $0) })
    /// uploads.maxConcurrentChildren = 2
    /// queue.addOperation(uploads)
    /// // … the network goes away:
    /// uploads.isSuspended = true  // the running uploads finish; no other one starts
    /// // … and comes back:
    /// uploads.isSuspended = false  // two at a time again
    /// ```
    ///
    /// Children that are executing run on. A child still waiting for its dependencies, evaluating
    /// its conditions or waiting for a category goes on doing so, and then waits for the group to
    /// be resumed before it starts; so does a child added meanwhile. The group finishes only once
    /// every child finished, so a group suspended with children that never started does not
    /// finish until it is resumed or cancelled.
    ///
    /// Set before the group executes, it holds its children back from the start. A cancel still
    /// reaches every child (S11): a cancelled group starts its children even while suspended, so
    /// that each of them finishes without executing, and finishes after them; `isSuspended` keeps
    /// the value it was given.
    public var isSuspended: Bool {
        get { withOwnLock { lockedGroup.isSuspended } }
        set { suspendQueue(withOwnLock { lockedGroup.setSuspended(newValue) }) }
    }

    /// Writes the suspension of the children's queue that the group's machine asked for, then
    /// again while it changed meanwhile: two threads' writes may land in either order, and the
    /// last one must be the latest wish. Outside the lock: resuming a queue may call the `isReady`
    /// of its operations.
    func suspendQueue(_ suspension: GroupMachine.QueueSuspension?) {
        var write = suspension
        while let next = write {
            next.queue.isSuspended = next.isSuspended
            write = withOwnLock { lockedGroup.queueSuspension(after: next.change) }
        }
    }
}
