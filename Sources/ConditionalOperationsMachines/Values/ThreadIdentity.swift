/// Which thread this is, cheaply (no system call): `pthread_self()` as a number. The machine
/// stores it; the operation's storage reads it.
public struct ThreadIdentity: Equatable, Sendable {
    @usableFromInline let value: UInt

    /// No thread: `pthread_self()` is never zero.
    public static let none = ThreadIdentity(bitsOf: UInt(0))

    /// The bits of a thread handle one word wide. `pthread_t` is an integer on glibc and a pointer
    /// on Darwin and musl: generic, this one line compiles for each (a cast written for one type
    /// does not compile, or warns, for the other), and `unsafeBitCast` checks the width.
    @inlinable @inline(__always)
    public init<Handle>(bitsOf handle: Handle) {
        value = unsafeBitCast(handle, to: UInt.self)
    }
}
