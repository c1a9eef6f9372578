import Foundation
import Testing

@testable import ConditionalOperations
@testable import ConditionalOperationsMachines

extension ConditionalOperationsTests {
    /// `ThreadIdentity` is `pthread_self()`'s bits, whatever the C library's `pthread_t` is: an
    /// integer on glibc, a pointer on Darwin and on musl (Swift's static Linux SDK). One line
    /// computes it for every such type, so the musl build compiles the code Linux runs here.
    @Suite struct ThreadIdentityTests {
        @Test func anIntegerAndAPointerHandleWithTheSameBitsAreTheSameThread() throws {
            let bits: UInt = 0x7f00_1234_5670
            let pointer = try #require(UnsafeMutableRawPointer(bitPattern: bits))
            let integer = ThreadIdentity(bitsOf: bits)
            #expect(ThreadIdentity(bitsOf: pointer) == integer, "Darwin's pthread_t")
            #expect(ThreadIdentity(bitsOf: OpaquePointer(bitPattern: bits)) == integer, "musl's pthread_t")
            #expect(ThreadIdentity(bitsOf: bits + 8) != integer)
            #expect(ThreadIdentity(bitsOf: UInt(0)) == .none)
        }

        @Test func theCurrentThreadIsItselfAndNoOther() async {
            let here = ThreadIdentity.current
            #expect(here != .none)
            #expect(ThreadIdentity(bitsOf: pthread_self()) == here)
            let elsewhere = Locked(ThreadIdentity.none)
            let done = Latch()
            Thread.detachNewThread {
                elsewhere.withLock { $0 = .current }
                done.countDown()
            }
            #expect(await done.wait())
            #expect(![here, .none].contains(elsewhere.withLock { $0 }))
        }
    }
}
