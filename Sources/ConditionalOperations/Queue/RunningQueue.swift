import Foundation

/// What a thread draining a ``ConditionalOperationQueue`` knows: the queue, for
/// ``ConditionalOperationQueue/current`` (Foundation sets its own `OperationQueue.current` only for
/// operations its scheduler starts, which this queue's are not), and the operation it is starting,
/// whose finish within its `start()` then takes the drainer's next trip through the queue's lock.
enum RunningQueue {
    /// A drainer's turn, on its stack for as long as it drains.
    struct Turn {
        /// Unretained: the queue outlives the work item draining it.
        let queue: Unmanaged<ConditionalOperationQueue>
        /// The operation being started, while its `start()` runs.
        var starting: ObjectIdentifier?
        /// Whether that one held a slot, once it finished within its `start()`; the errors it
        /// finished with.
        var finish: (errors: [any Error], heldASlot: Bool)?

        init(_ queue: ConditionalOperationQueue) {
            self.queue = .passUnretained(queue)
        }
    }

    /// A thread-specific pointer to the drainer's turn.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    static var current: ConditionalOperationQueue? {
        turn?.pointee.queue.takeUnretainedValue()
    }

    /// The turn of the drainer running on this thread, if any.
    static var turn: UnsafeMutablePointer<Turn>? {
        pthread_getspecific(key)?.assumingMemoryBound(to: Turn.self)
    }

    /// Marks `turn` as the current thread's; returns the mark it replaces.
    static func enter(_ turn: UnsafeMutablePointer<Turn>) -> UnsafeMutableRawPointer? {
        let outer = pthread_getspecific(key)
        pthread_setspecific(key, UnsafeMutableRawPointer(turn))
        return outer
    }

    static func leave(restoring outer: UnsafeMutableRawPointer?) {
        pthread_setspecific(key, outer)
    }
}
