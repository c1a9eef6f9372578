import Foundation

/// Which ready operations run now and which wait for a slot; the queue runs the ones handed out
/// on Dispatch, outside its lock.
///
/// It keeps what users of `OperationQueue` rely on: at most ``limit`` operations run at once,
/// none starts while ``isSuspended``, and waiting ones start by `queuePriority`, first come first
/// served within a priority.
extension QueueStateMachine {
    /// A drainer to start: its Dispatch queue, and the operation it starts first, if it takes one.
    package struct Drainer {
        package let target: DispatchQueue
        package let first: Foundation.Operation?

        package init(target: DispatchQueue, first: Foundation.Operation?) {
            self.target = target
            self.first = first
        }
    }

    private var hasSlot: Bool {
        !isSuspended && (limit == OperationQueue.defaultMaxConcurrentOperationCount || running < limit)
    }

    package mutating func setLimit(_ newLimit: Int) -> [Foundation.Operation] {
        limit = newLimit
        return takeRunnable()
    }

    package mutating func setSuspended(_ suspended: Bool) -> [Foundation.Operation] {
        isSuspended = suspended
        return takeRunnable()
    }

    package mutating func retarget(_ newTarget: DispatchQueue) {
        target = newTarget
    }

    /// Ready operations, when no limit or suspension holds any back and none waits: they all run
    /// now (`true`); otherwise nothing changes (`false`): ask again with their priorities.
    package mutating func submitAll(count: Int) -> Bool {
        guard waitingCount == 0, !isSuspended, limit == OperationQueue.defaultMaxConcurrentOperationCount
        else { return false }
        running += count
        return true
    }

    /// Ready operations with their `queuePriority` (read before locking: it may be overridden):
    /// those to run now, in order; the others wait.
    package mutating func submit(_ operations: [(Foundation.Operation, Foundation.Operation.QueuePriority)])
        -> [Foundation.Operation]
    {
        for (operation, priority) in operations {
            waiting[Self.line(of: priority)].append(operation)
            waitingCount += 1
        }
        return takeRunnable()
    }

    /// Moves `operation`, if it waits, to the end of the line of `priority`. It walks the lines
    /// until it finds it, as Foundation's queue walks the list of the old priority: priorities
    /// change rarely.
    package mutating func reprioritize(
        _ operation: Foundation.Operation, to priority: Foundation.Operation.QueuePriority
    ) {
        let target = Self.line(of: priority)
        for line in waiting.indices where line != target && waiting[line].remove(operation) {
            waiting[target].append(operation)
            return
        }
    }

    /// An operation handed out finished, or declined its start: the ones to run in its place.
    package mutating func slotFreed() -> [Foundation.Operation] {
        running -= 1
        return waitingCount == 0 ? [] : takeRunnable()
    }

    /// Operations handed out (by ``submit(_:)``, ``slotFreed()``, ``setLimit(_:)``,
    /// ``setSuspended(_:)``) join the line of those to start; returns the drainer to start on
    /// ``target`` for them, if one is needed.
    ///
    /// A drainer is one Dispatch work item that starts operations one after another while there
    /// are any, so a queue of short operations costs one work item for many, not one closure
    /// each. Whenever operations wait to start, some drainer is on its way to them: one that
    /// starts an operation that blocks never holds the others back.
    ///
    /// A new drainer for the one operation waiting to start takes it with it (`first`): the
    /// common lone operation costs no trip to fetch it. But handed out `fromOutside` (by a program
    /// adding operations one at a time, not by one finishing inside a drainer's `start()`) beside
    /// a busy drainer, it takes none: those added until it runs wait for it, and one work item
    /// starts many instead of one each.
    package mutating func handOut(_ operations: [Foundation.Operation]) -> Drainer? {
        for operation in operations { starting.append(operation) }
        return drainerForStarting()
    }

    /// A lone operation handed out (``handOut(_:)-([Foundation.Operation])``): no array is made
    /// for it. Neither is generic: called from another module, a generic event ran unspecialised.
    package mutating func handOut(_ operation: Foundation.Operation, fromOutside: Bool = false) -> Drainer? {
        starting.append(operation)
        return drainerForStarting(fromOutside: fromOutside)
    }

    private mutating func drainerForStarting(fromOutside: Bool = false) -> Drainer? {
        guard needsDrainer() else { return nil }
        guard starting.count == 1, !fromOutside || busyDrainers == 0 else {
            return Drainer(target: target, first: nil)
        }
        idleDrainers -= 1  // busy with it from the start
        busyDrainers += 1
        return Drainer(target: target, first: starting.popFirst())
    }

    /// A drainer on `drainerTarget` asks for the next operation to start, coming from Dispatch or,
    /// if `isBack`, from the `start()` of its previous one; `nil`: none, the drainer ends.
    /// `another`: the target to start another drainer on for the rest, as this one is busy with
    /// `operation`, or ends because it runs on a Dispatch queue no longer the queue's (its quality
    /// of service or `underlyingQueue` changed).
    package mutating func nextToStart(isBack: Bool, on drainerTarget: DispatchQueue) -> (
        operation: Foundation.Operation?, another: DispatchQueue?
    ) {
        // Back from a `start()`, it was busy; from Dispatch, on its way.
        if isBack { busyDrainers -= 1 } else { idleDrainers -= 1 }
        guard target === drainerTarget else { return (nil, needsDrainer() ? target : nil) }
        guard let operation = starting.popFirst() else { return (nil, nil) }
        busyDrainers += 1
        return (operation, needsDrainer() ? target : nil)
    }

    /// An operation a drainer on `drainerTarget` started finished within its `start()`: its slot
    /// (if `heldASlot`) goes to the next ones, which join the line of those to start, and the
    /// drainer takes the next one itself (``nextToStart(isBack:on:)``): no other drainer is woken
    /// for them (unless the drainer hands it to one, with what it counts, before it tells the
    /// queue's delegate).
    package mutating func finishedWithinStart(heldASlot: Bool, on drainerTarget: DispatchQueue) -> (
        operation: Foundation.Operation?, another: DispatchQueue?
    ) {
        if heldASlot {
            for operation in slotFreed() { starting.append(operation) }
        }
        return nextToStart(isBack: true, on: drainerTarget)
    }

    private mutating func needsDrainer() -> Bool {
        guard idleDrainers == 0, !starting.isEmpty else { return false }
        idleDrainers += 1
        return true
    }

    private mutating func takeRunnable() -> [Foundation.Operation] {
        var runnable: [Foundation.Operation] = []
        while waitingCount > 0, hasSlot {
            guard let line = waiting.indices.first(where: { !waiting[$0].isEmpty }),
                let operation = waiting[line].popFirst()
            else { break }
            waitingCount -= 1
            running += 1
            runnable.append(operation)
        }
        return runnable
    }

    private static func line(of priority: Foundation.Operation.QueuePriority) -> Int {
        switch priority {
        case .veryHigh: 0
        case .high: 1
        case .normal: 2
        case .low: 3
        case .veryLow: 4
        @unknown default: 2
        }
    }
}
