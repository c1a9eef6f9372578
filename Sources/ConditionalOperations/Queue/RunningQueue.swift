import Foundation

/// The ``ConditionalOperationQueue`` whose operation the current thread is starting, for
/// ``ConditionalOperationQueue/current``: Foundation sets its own `OperationQueue.current` only for
/// operations its scheduler starts, which this queue's are not.
enum RunningQueue {
    /// A thread-specific value, unretained: the queue outlives the `start()` it is set around.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    static var current: ConditionalOperationQueue? {
        pthread_getspecific(key).map {
            Unmanaged<ConditionalOperationQueue>.fromOpaque($0).takeUnretainedValue()
        }
    }

    /// Marks `queue` as the current thread's; returns the mark it replaces.
    static func enter(_ queue: ConditionalOperationQueue) -> UnsafeMutableRawPointer? {
        let outer = pthread_getspecific(key)
        pthread_setspecific(key, Unmanaged.passUnretained(queue).toOpaque())
        return outer
    }

    static func leave(restoring outer: UnsafeMutableRawPointer?) {
        pthread_setspecific(key, outer)
    }
}
