#if LOCK_COUNTING
    /// Counts the library's lock acquisitions, in builds made with `-Xswiftc -DLOCK_COUNTING`
    /// only: how the trips through the locks per operation are measured (`LockTripTests`).
    /// Foundation's reads of `isFinished` are not counted (`withLock(counted:_:)`).
    enum LockCounter {
        /// Behind the library's lock, initialised as every one of its mutexes is (a zero-filled
        /// `pthread_mutex_t` is a valid mutex on glibc and musl, not on Darwin); its own trips are
        /// not counted.
        private static let trips = Locked(0)

        static func count() {
            trips.withLock(counted: false) { $0 += 1 }
        }

        /// The acquisitions counted since the last call.
        static func take() -> Int {
            trips.withLock(counted: false) { trips in
                defer { trips = 0 }
                return trips
            }
        }
    }
#endif
