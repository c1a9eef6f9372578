import Foundation

extension UnsafeMutablePointer where Pointee == pthread_mutex_t {
    /// Runs `body` with the mutex locked: the one place the library locks and unlocks. Never call
    /// out to user code from `body`. `counted`: whether `-DLOCK_COUNTING` builds count the trip
    /// (`LockTripTests`; Foundation's own reads of `isFinished` are not counted).
    @inline(__always)
    func withLock<Result>(counted: Bool = true, _ body: () throws -> Result) rethrows -> Result {
        #if LOCK_COUNTING
            if counted { LockCounter.count() }
        #endif
        pthread_mutex_lock(self)
        defer { pthread_mutex_unlock(self) }
        return try body()
    }
}
