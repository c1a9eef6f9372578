import Foundation

/// Which thread this is, cheaply (no system call): `pthread_self()` as a number.
struct ThreadIdentity: Equatable, Sendable {
    private let value: UInt

    /// No thread: `pthread_self()` is never zero.
    static let none = ThreadIdentity(value: 0)

    static var current: ThreadIdentity {
        #if canImport(Darwin)
            ThreadIdentity(value: UInt(bitPattern: pthread_self()))
        #else
            ThreadIdentity(value: UInt(pthread_self()))
        #endif
    }
}
