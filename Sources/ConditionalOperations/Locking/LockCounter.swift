#if LOCK_COUNTING
    import Foundation

    /// Counts the library's lock acquisitions, in builds made with `-Xswiftc -DLOCK_COUNTING`
    /// only: how the trips through the locks per operation are measured (`LockTripTests`).
    /// Foundation's reads of `isFinished` are not counted (`withLock(counted:_:)`).
    enum LockCounter {
        // the count is only reached under `mutex`, which is not itself counted
        nonisolated(unsafe) private static var trips = 0
        nonisolated(unsafe) private static var mutex = pthread_mutex_t()

        static func count() {
            pthread_mutex_lock(&mutex)
            trips += 1
            pthread_mutex_unlock(&mutex)
        }

        /// The acquisitions counted since the last call.
        static func take() -> Int {
            pthread_mutex_lock(&mutex)
            defer { pthread_mutex_unlock(&mutex) }
            defer { trips = 0 }
            return trips
        }
    }
#endif
