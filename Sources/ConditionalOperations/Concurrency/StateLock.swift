#if CONDITIONAL_OPERATIONS_PTHREAD_LOCKS
    /// The sanitizer run of CI builds with this flag: ThreadSanitizer can't see `Mutex` on Linux.
    typealias StateLock<Value> = Locked<Value>
#else
    import Synchronization

    /// The lock of hot state (each operation's, the exclusivity controller's, a queue's): a
    /// `Mutex`, stored inline, so an operation allocates nothing for it.
    typealias StateLock<Value> = Mutex<Value>
#endif
