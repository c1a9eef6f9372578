#if LOCK_COUNTING
    import Foundation
    import Testing

    @testable import ConditionalOperations

    extension ConditionalOperationsTests.LockTripTests {
        /// A retry whose first attempt fails and second succeeds, and a repeat of two iterations,
        /// on a plain queue: the trips of the composite and of its two attempts together (33 and 40
        /// while the composites kept their attempts behind a lock of their own; 32 and 33 while
        /// the attempts ran on the composite's own queue, before S32 gave them the library's
        /// `ConditionalOperationQueue`, whose admission and finish take two trips an attempt).
        @Test(arguments: [("retry, 2 attempts", true, 36), ("repeat, 2 iterations", false, 37)])
        func aCompositeOfTwoAttempts(kind: String, retries: Bool, bound: Int) {
            let queue = OperationQueue()
            let trips = Self.fewestTrips {
                Self.run(on: queue) {
                    retries
                        ? RetryOperation<Int>(maximumAttempts: 2) { number in
                            ValueOperation(number == 2 ? .success(number) : .failure(TestError(number)))
                        }
                        : RepeatOperation<Int>(maximumCount: 2) { number in ValueOperation(.success(number)) }
                }
            }
            Swift.print("lock trips, \(kind): \(trips)")
            #expect(trips <= Self.bound(linux: bound))
        }
    }
#endif
