import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests {
    /// S9 on a `ConditionalOperationQueue`: the operations of a dependency cycle it breaks finish
    /// one after another. swift-corelibs-foundation finishes an operation holding its lock while
    /// it takes the lock of each operation depending on it, so two operations of one cycle
    /// finishing at once each waited for the other's lock for ever (about one cycle in 7,000).
    @Suite struct S9CycleReleaseTests {
        /// An operation that, as it begins to finish (its `finished(errors:)`, before `isFinished`
        /// flips), counts itself among those finishing and waits a moment for another one to
        /// begin meanwhile.
        final class FinishingProbe: ConditionalOperation, @unchecked Sendable {
            // Its stored state: `let`s of Sendable types.
            let finishing: Locked<Int>
            let overlapped: DispatchSemaphore

            init(finishing: Locked<Int>, overlapped: DispatchSemaphore) {
                self.finishing = finishing
                self.overlapped = overlapped
                super.init()
            }

            override func finished(errors: [any Error]) {
                let count = finishing.withLock { count in
                    count += 1
                    return count
                }
                if count > 1 {
                    overlapped.signal()
                } else if overlapped.wait(timeout: .now() + 0.5) == .success {
                    overlapped.signal()  // seen: leave it for the test to see too
                }
                finishing.withLock { $0 -= 1 }
            }
        }

        @Test func S9_theOperationsOfABrokenCycleFinishOneAfterAnother() async {
            let finishing = Locked(0)
            let overlapped = DispatchSemaphore(value: 0)
            let first = FinishingProbe(finishing: finishing, overlapped: overlapped)
            let second = FinishingProbe(finishing: finishing, overlapped: overlapped)
            first.addDependency(second)
            second.addDependency(first)
            let done = completionLatch([first, second])
            let queue = ConditionalOperationQueue()
            queue.addOperation(first)
            queue.addOperation(second)
            #expect(await done.wait())
            #expect(
                overlapped.wait(timeout: .now()) == .timedOut, "both operations of the cycle finished at once"
            )
            for operation in [first, second] {
                #expect(operation.errors.first as? OperationError == .dependencyCycle)
            }
        }
    }
}
