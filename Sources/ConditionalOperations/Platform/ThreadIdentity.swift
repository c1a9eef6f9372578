import Foundation

/// Which thread this is, cheaply (no system call): `pthread_self()` as a number.
struct ThreadIdentity: Equatable, Sendable {
    private let value: UInt

    /// No thread: `pthread_self()` is never zero.
    static let none = ThreadIdentity(bitsOf: UInt(0))

    static var current: ThreadIdentity { ThreadIdentity(bitsOf: pthread_self()) }

    /// The bits of a thread handle one word wide. `pthread_t` is an integer on glibc and a pointer
    /// on Darwin and musl: generic, this one line compiles for each (a cast written for one type
    /// does not compile, or warns, for the other), and `unsafeBitCast` checks the width.
    @inline(__always)
    init<Handle>(bitsOf handle: Handle) {
        value = unsafeBitCast(handle, to: UInt.self)
    }
}
