#if LOCK_COUNTING
    import Foundation
    import Testing

    @testable import ConditionalOperations

    extension ConditionalOperationsTests.LockTripTests {
        /// A group of two no-op children and an `AsyncOperation` with no work, on a plain queue:
        /// the trips of the whole life, children included.
        @Test(arguments: [("group of 2 children", true, 47), ("AsyncOperation", false, 7)])
        func aGroupOrAnAsyncOperation(kind: String, group: Bool, bound: Int) {
            let queue = OperationQueue()
            let trips = Self.fewestTrips {
                Self.run(on: queue) {
                    group
                        ? GroupOperation(operations: [ConditionalOperation(), ConditionalOperation()])
                        : AsyncOperation<Void> {}
                }
            }
            Swift.print("lock trips, \(kind): \(trips)")
            #expect(trips <= Self.bound(linux: bound))
        }
    }
#endif
