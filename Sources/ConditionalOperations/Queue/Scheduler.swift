import ConditionalOperationsMachines
import Foundation

/// Which ready operations of a ``ConditionalOperationQueue`` run now and which wait for a slot, as
/// a value: the queue runs the ones it hands out on Dispatch, outside its lock.
///
/// It keeps what users of `OperationQueue` rely on: at most `limit` operations run at once
/// (`maxConcurrentOperationCount`; `OperationQueue.defaultMaxConcurrentOperationCount`: no limit),
/// none starts while `isSuspended`, and waiting ones start by `queuePriority`, first come first
/// served within a priority.
struct Scheduler {
    private(set) var limit = OperationQueue.defaultMaxConcurrentOperationCount
    private(set) var isSuspended = false
    /// Handed out and not yet reported finished.
    private var running = 0
    /// The ready operations waiting for a slot or a resume, one first-in first-out line per
    /// `queuePriority`, the highest first.
    private var waiting = [Line](repeating: Line(), count: 5)
    private var waitingCount = 0
    /// Handed out and not yet started: the queue's drainers take them one at a time (``handOut(_:)``).
    private var starting = Line()
    /// Drainers on their way to take the next one: queued on Dispatch, or back from a `start()`.
    private var idleDrainers = 0

    private var hasSlot: Bool {
        !isSuspended && (limit == OperationQueue.defaultMaxConcurrentOperationCount || running < limit)
    }

    /// Ready operations, when no limit or suspension holds any back and none waits: they all run
    /// now (`true`); otherwise nothing changes (`false`): ask again with their priorities.
    mutating func submitAll(count: Int) -> Bool {
        guard waitingCount == 0, !isSuspended, limit == OperationQueue.defaultMaxConcurrentOperationCount
        else { return false }
        running += count
        return true
    }

    /// Ready operations with their `queuePriority` (read before locking: it may be overridden):
    /// those to run now, in order; the others wait.
    mutating func submit(_ operations: [(Foundation.Operation, Foundation.Operation.QueuePriority)])
        -> [Foundation.Operation]
    {
        for (operation, priority) in operations {
            waiting[Self.line(of: priority)].append(operation)
            waitingCount += 1
        }
        return takeRunnable()
    }

    /// One operation handed out finished: the ones to run in its place.
    mutating func finished() -> [Foundation.Operation] {
        running -= 1
        return waitingCount == 0 ? [] : takeRunnable()
    }

    /// Moves `operation`, if it waits, to the end of the line of `priority`. It walks the lines
    /// until it finds it, as Foundation's queue walks the list of the old priority: priorities
    /// change rarely.
    mutating func reprioritize(
        _ operation: Foundation.Operation, to priority: Foundation.Operation.QueuePriority
    ) {
        let target = Self.line(of: priority)
        for line in waiting.indices where line != target && waiting[line].remove(operation) {
            waiting[target].append(operation)
            return
        }
    }

    mutating func setLimit(_ newLimit: Int) -> [Foundation.Operation] {
        limit = newLimit
        return takeRunnable()
    }

    mutating func setSuspended(_ suspended: Bool) -> [Foundation.Operation] {
        isSuspended = suspended
        return takeRunnable()
    }

    /// Operations handed out (by `submit`, `finished`, `setLimit`, `setSuspended`) join the line
    /// of those to start; returns whether a new drainer must be started on Dispatch for them.
    ///
    /// A drainer is one Dispatch work item that starts operations one after another while there
    /// are any, so a queue of short operations costs one work item for many, not one closure
    /// each. Whenever operations wait to start, some drainer is on its way to them: one that
    /// starts an operation that blocks never holds the others back.
    ///
    /// A new drainer for the one operation waiting to start takes it with it (`first`): the
    /// common lone operation costs no trip to fetch it.
    mutating func handOut(_ operations: some Collection<Foundation.Operation>) -> (
        needsDrainer: Bool, first: Foundation.Operation?
    ) {
        for operation in operations { starting.append(operation) }
        guard needsDrainer() else { return (false, nil) }
        guard starting.count == 1 else { return (true, nil) }
        idleDrainers -= 1  // busy with it from the start
        return (true, starting.popFirst())
    }

    /// A drainer asks for the next operation to start, coming from Dispatch or, if `isBack`, from
    /// the `start()` of its previous one; `nil`: none, the drainer ends. `needsDrainer`: start
    /// another for the rest, as this one is busy with `operation`, or ends because it runs on a
    /// Dispatch queue no longer the queue's (`isRetargeted`: its quality of service or
    /// `underlyingQueue` changed).
    mutating func nextToStart(isBack: Bool, isRetargeted: Bool) -> (
        operation: Foundation.Operation?, needsDrainer: Bool
    ) {
        if isBack { idleDrainers += 1 }
        idleDrainers -= 1
        guard !isRetargeted else { return (nil, needsDrainer()) }
        guard let operation = starting.popFirst() else { return (nil, false) }
        return (operation, needsDrainer())
    }

    /// A drainer back from the `start()` of an operation that finished there hands out the
    /// operations its slot lets run (`operations`) and takes the next one itself (
    /// ``nextToStart(isBack:isRetargeted:)``): no other drainer is woken for them.
    mutating func handOutAndTakeNext(_ operations: [Foundation.Operation], isRetargeted: Bool) -> (
        operation: Foundation.Operation?, needsDrainer: Bool
    ) {
        for operation in operations { starting.append(operation) }
        return nextToStart(isBack: true, isRetargeted: isRetargeted)
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

    /// First in, first out, letting go of each operation as it leaves; one that moved to another
    /// line leaves a gap (`nil`), skipped.
    private struct Line {
        private var operations: [Foundation.Operation?] = []
        private var head = 0
        private var gaps = 0

        var isEmpty: Bool { head + gaps == operations.count }

        /// How many operations wait here.
        var count: Int { operations.count - head - gaps }

        mutating func append(_ operation: Foundation.Operation) {
            operations.append(operation)
        }

        mutating func popFirst() -> Foundation.Operation? {
            while head < operations.count {
                let first = operations[head]
                operations[head] = nil
                head += 1
                operations.dropConsumedPrefix(head: &head)
                guard let first else {
                    gaps -= 1
                    continue
                }
                return first
            }
            return nil
        }

        /// Takes `operation` out if it waits here; returns whether it did.
        mutating func remove(_ operation: Foundation.Operation) -> Bool {
            guard let index = operations[head...].firstIndex(where: { $0 === operation }) else {
                return false
            }
            operations[index] = nil
            gaps += 1
            return true
        }
    }
}
