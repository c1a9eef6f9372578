import Foundation

/// A `ConditionalOperationQueue`'s own bookkeeping as one value: what adding an operation
/// involves, where a plain operation goes (`+Plain`), which ready operations run now and which
/// wait for a slot (`+Slots`), its suspension, shutdown and barriers.
///
/// Each event is a mutating function returning what the queue does next, outside its lock; the
/// queue's storage alone applies the events, under that lock. The queue's listeners (its delegate,
/// its logger) and its dependency graph are the storage's, beside it under that lock: the
/// machine is told only whether the queue has listeners. Not generic: its events are called
/// across modules on every operation's way, where a generic machine was called unspecialised.
package struct QueueStateMachine {
    /// Whether the queue's `shutdown(gracePeriod:)` was called (S21).
    package enum Life: Equatable, CustomStringConvertible {
        case open
        case shutDown

        package var description: String { self == .open ? "open" : "shut down" }
    }

    package private(set) var life = Life.open
    /// Barrier operations not yet finished: every operation added after one depends on it.
    package private(set) var barriers: [Foundation.Operation] = []

    // The slots (`+Slots`).

    /// `maxConcurrentOperationCount`; `OperationQueue.defaultMaxConcurrentOperationCount`: no limit.
    package internal(set) var limit = OperationQueue.defaultMaxConcurrentOperationCount
    package internal(set) var isSuspended = false
    /// Where its operations run: the queue's `underlyingQueue`, else the global queue of its
    /// quality of service.
    package internal(set) var target = DispatchQueue.global()
    /// Handed out and not yet reported finished.
    var running = 0
    /// The ready operations waiting for a slot or a resume, one first-in first-out line per
    /// `queuePriority`, the highest first.
    var waiting = [OperationLine](repeating: OperationLine(), count: 5)
    var waitingCount = 0
    /// Handed out and not yet started: the queue's drainers take them one at a time (``handOut(_:)``).
    var starting = OperationLine()
    /// Drainers on their way to take the next one: queued on Dispatch, or back from a `start()`.
    var idleDrainers = 0
    /// Drainers inside an operation's `start()`, which they come back from for the next one.
    var busyDrainers = 0

    // Plain operations (`+Plain`).

    /// Plain operations waiting for their dependencies to finish before they are submitted (on a
    /// queue with a concurrency limit).
    package internal(set) var waitingPlain: [ObjectIdentifier: Foundation.Operation] = [:]
    /// Plain operations handed to Foundation's scheduler without a slot (while no limit held),
    /// until they finished: a limit set meanwhile cannot count them.
    package internal(set) var unslottedPlain: [ObjectIdentifier: Foundation.Operation] = [:]

    package init() {}

    package var isShutDown: Bool { life == .shutDown }

    // MARK: Admission

    package enum AdmitAction {
        /// Nothing to involve (no listener, barrier or shutdown): register it now, in this trip.
        case register
        /// Tell the listeners (if the queue has any), add `barriers` as its dependencies, cancel
        /// it if `isShutDown`, all outside the lock; then register it.
        case prepare(barriers: [Foundation.Operation], isShutDown: Bool)
    }

    /// `operation` is being added; `listened`: the queue has a delegate or a logger to involve.
    package mutating func admit(_ operation: Foundation.Operation, listened: Bool) -> AdmitAction {
        guard barriers.isEmpty, life == .open, !listened else {
            return .prepare(
                barriers: barriers(awaitedBy: operation), isShutDown: cancelsForShutdown(operation))
        }
        return .register
    }

    /// S21: `operation`, being added, finishes without running: the queue is shut down. Not a
    /// barrier block: whether it was added before the shutdown was decided as it was added
    /// (``addBarrier(_:)``), and operations added after it may wait for it already.
    package func cancelsForShutdown(_ operation: Foundation.Operation) -> Bool {
        isShutDown && !barriers.contains { $0 === operation }
    }

    /// The barrier blocks `operation` waits for: every one, or for a barrier block, those added
    /// before it (two waiting for each other would never run).
    package func barriers(awaitedBy operation: Foundation.Operation) -> [Foundation.Operation] {
        guard let index = barriers.firstIndex(where: { $0 === operation }) else { return barriers }
        return Array(barriers[..<index])
    }

    // MARK: Life

    package enum ShutdownAction: Equatable {
        /// The first call: the caller runs the shutdown.
        case begin
        /// Shut down already: the first call's grace period holds.
        case none
    }

    package mutating func shutDown() -> ShutdownAction {
        switch life {
        case .open:
            life = .shutDown
            return .begin
        case .shutDown:
            return .none
        }
    }

    package mutating func addBarrier(_ barrier: Foundation.Operation) {
        barriers.append(barrier)
    }

    /// A barrier finished. It was added with ``addBarrier(_:)`` and finishes once: a barrier not
    /// held is impossible.
    package mutating func barrierFinished(_ barrier: Foundation.Operation) {
        guard let index = barriers.firstIndex(where: { $0 === barrier }) else {
            fatalError("QueueStateMachine: barrierFinished in state \(life): a barrier it does not hold")
        }
        barriers.remove(at: index)
    }
}
