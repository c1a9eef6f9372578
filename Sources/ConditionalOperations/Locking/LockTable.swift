import Foundation

/// The locks of the operations: a fixed table of `pthread_mutex_t`, each operation using the one
/// its address picks.
///
/// An operation's lock costs it no memory and no allocation (the memory target (README, Performance) counts bytes per
/// operation), and it is the library's one kind of lock, a pthread mutex, which ThreadSanitizer
/// sees on every platform. Operations sharing a mutex only wait for each other's short critical
/// sections, which never call out. Never take one operation's lock while holding another's:
/// both may be the same mutex.
enum LockTable {
    private static let count = 256
    /// Each mutex on a cache line of its own, so that neighbours do not slow each other down.
    private static let stride = (MemoryLayout<pthread_mutex_t>.size + 63) / 64 * 64

    nonisolated(unsafe) private static let mutexes: UnsafeMutableRawPointer = {
        let table = UnsafeMutableRawPointer.allocate(byteCount: count * stride, alignment: 64)
        for index in 0..<count {
            let mutex = (table + index * stride).bindMemory(to: pthread_mutex_t.self, capacity: 1)
            MutexAttributes.initialize(mutex)
        }
        return table
    }()

    /// The mutex of `object`.
    @inline(__always)
    static func mutex(for object: ObjectIdentifier) -> UnsafeMutablePointer<pthread_mutex_t> {
        let address = UInt(bitPattern: object)
        // Heap addresses are 16-byte aligned; fold higher bits in so that neighbours differ.
        let index = Int(truncatingIfNeeded: (address >> 4) ^ (address >> 12)) & (count - 1)
        return (mutexes + index * stride).assumingMemoryBound(to: pthread_mutex_t.self)
    }
}
