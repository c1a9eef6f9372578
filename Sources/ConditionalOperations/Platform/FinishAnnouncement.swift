import Foundation

/// Which operation the current thread is telling Foundation it finished: inside its
/// `didChangeValue(forKey: "isFinished")`.
///
/// swift-corelibs-foundation, told that an operation finished, takes the operation's list of
/// dependents out under the operation's lock, then visits each, retaining it a moment. A dependent
/// whose other references went meanwhile is deallocated there, on this thread, under that lock:
/// its deinit must not take the operation's lock again (``ConditionalOperation`` takes each
/// dependency out of Foundation as it is deallocated), and need not, for it is listed there no
/// more. A mark per thread, not the operation's state: on another thread the same dependent's
/// deinit must take its dependencies out, and waits for the visit to end.
enum FinishAnnouncement {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Runs `announce` marked as `operation`'s announcement, on this thread.
    static func announcing(_ operation: ConditionalOperation, _ announce: () -> Void) {
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, Unmanaged.passUnretained(operation).toOpaque())
        announce()
        pthread_setspecific(key, previous)
    }

    /// Whether this thread is inside `operation`'s announcement.
    static func isAnnouncing(_ operation: Foundation.Operation) -> Bool {
        pthread_getspecific(key) == Unmanaged.passUnretained(operation).toOpaque()
    }
}
