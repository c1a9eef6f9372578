import Foundation

/// Releases a run's operations without recursive deinitialisation.
///
/// A finished Foundation operation keeps its dependencies alive, so dropping the last reference
/// to the tail of a chain frees the whole chain recursively, and a chain of about 35k operations
/// overflows the stack on Linux. Releasing the tail first, while the array still holds every
/// other operation, frees one operation at a time.
enum Release {
    static func lastFirst(_ operations: inout [Foundation.Operation]) {
        guard !operations.isEmpty else { return }
        // The queue drops its own reference to an operation a moment after the operation
        // finished; if it dropped the tail's after we released the chain, it would free the
        // chain recursively. Give it up to a second.
        var waits = 0
        while !isKnownUniquelyReferenced(&operations[operations.count - 1]), waits < 10_000 {
            usleep(100)
            waits += 1
        }
        while operations.popLast() != nil {}
    }
}
