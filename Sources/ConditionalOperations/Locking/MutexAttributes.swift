import Foundation

/// How the library initialises each of its pthread mutexes.
enum MutexAttributes {
    /// Initialises `mutex`. On Linux the mutex is glibc's adaptive kind, which spins briefly before
    /// sleeping: the library's critical sections are a few instructions long, and with the default
    /// kind a contended lock puts the waiter to sleep at once (the exclusivity benchmark, where the
    /// thread adding operations and the one finishing them share several locks, measured 1.8–2.3×
    /// Foundation's time with this kind and 2.1–2.9× with the default one).
    static func initialize(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) {
        #if canImport(Glibc)  // glibc has the adaptive kind; elsewhere the default is right
            var attributes = pthread_mutexattr_t()
            pthread_mutexattr_init(&attributes)
            pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
            pthread_mutex_init(mutex, &attributes)
            pthread_mutexattr_destroy(&attributes)
        #else
            pthread_mutex_init(mutex, nil)
        #endif
    }
}
