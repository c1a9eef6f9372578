import Foundation

/// Carries the error of a `cancel(with:)` to the base `cancel()` it calls on the same thread,
/// through whatever overrides of `cancel()` run between them, without a trip through the
/// operation's lock: the base records it in the cancel's own trip (one event), so that a finish
/// never lands between the error and the cancel.
///
/// The offer lives on the calling thread's stack while `cancel()` runs, and a thread-specific slot
/// points at it. Offers nest (an override that cancels another operation with an error): each
/// names its operation, and the outer one is back once the inner one ended.
enum CancelErrorHandoff {
    private struct Offer {
        let operation: ObjectIdentifier
        var error: (any Error)?
    }

    private static let slot: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "pthread_key_create failed: \(status)")
        return key
    }()

    /// Runs `cancel` with `error` offered to `operation`'s base `cancel()` on this thread.
    /// Returns `error` if nothing took it: the override of `cancel()` did not call `super` here.
    static func offer(_ error: any Error, to operation: ConditionalOperation, while cancel: () -> Void)
        -> (any Error)?
    {
        var offer = Offer(operation: ObjectIdentifier(operation), error: error)
        let outer = pthread_getspecific(slot)
        withUnsafeMutablePointer(to: &offer) { offer in
            pthread_setspecific(slot, offer)
            defer { pthread_setspecific(slot, outer) }
            cancel()
        }
        return offer.error
    }

    /// Takes the error offered to `operation` on this thread, if any.
    static func take(for operation: ConditionalOperation) -> (any Error)? {
        guard let pointer = pthread_getspecific(slot) else { return nil }
        let offer = pointer.assumingMemoryBound(to: Offer.self)
        guard offer.pointee.operation == ObjectIdentifier(operation) else { return nil }
        defer { offer.pointee.error = nil }
        return offer.pointee.error
    }
}
