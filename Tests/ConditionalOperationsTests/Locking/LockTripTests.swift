@testable import ConditionalOperationsMachines

#if LOCK_COUNTING
    import Foundation
    import Testing

    @testable import ConditionalOperations

    extension ConditionalOperationsTests {
        /// Trips through the library's locks for one operation's life, from its creation to its
        /// queue's end, in builds with `-Xswiftc -DLOCK_COUNTING` only (run this suite alone:
        /// `swift test -Xswiftc -DLOCK_COUNTING --filter LockTripTests`). Foundation's reads of
        /// `isFinished` (two to four, as its threads happen to run) are not counted (they take the
        /// lock uncounted: subtracting them afterwards raced with the next life's count), and each row is
        /// the fewest of 20 lives, so that a lazily made shared object does not count. The `ConditionalOperationQueue` rows include one trip of the
        /// queue's own `waitUntilAllOperationsAreFinished()`. Each bound is Linux's count, where
        /// `.ci/run` checks it, plus ``applePlatformTrips`` on Apple platforms.
        @Suite(.serialized) struct LockTripTests {
            /// The trips an operation's life takes on Apple platforms beyond its count on Linux,
            /// where Foundation differs (0 on Linux). Not seen on a Mac: the project's CI runs these
            /// tests on Linux only.
            /// - The start is announced by KVO `isExecuting` there
            ///   (`OperationStateMachine.postsExecutingKVO`), so it goes through the operation's
            ///   effects instead of executing at once: 2 trips (measured on Linux with the
            ///   announcement switched on: every row then took 4 more, 2 of them
            ///   swift-corelibs-foundation's own read of `isExecuting` after each notification).
            /// - Apple's queue observes `isExecuting`; at each of the two notifications (the start,
            ///   the finish) an observer may read it before and after the change, a trip each: 4.
            /// - `isReady` takes the lock at every read there (no lock-free hint:
            ///   `LockFreeReadiness.isKept`), where Linux answers the reads after the one that admits
            ///   the operation without it. Allowed for: the queue reading it before and after the
            ///   operation's announcement that it is ready, 2.
            static let applePlatformTrips =
                (OperationHost.postsExecutingKVO ? 2 + 4 : 0) + (LockFreeReadiness.isKept ? 0 : 2)

            /// The bound for a count of `linux` trips on Linux, on this platform.
            static func bound(linux: Int) -> Int { linux + applePlatformTrips }

            static func fewestTrips(_ life: () -> Void) -> Int {
                (0..<20).map { _ in
                    _ = LockCounter.take()
                    life()
                    return LockCounter.take()
                }.min() ?? 0
            }

            static func run(on queue: OperationQueue, _ operation: () -> Foundation.Operation) {
                queue.addOperation(operation())
                queue.waitUntilAllOperationsAreFinished()
            }

            @Test(arguments: [
                ("no-op, OperationQueue", false, 5),
                ("no-op, ConditionalOperationQueue", true, 7),
            ])
            func aNoOpOperation(kind: String, conditional: Bool, bound: Int) {
                let queue = conditional ? ConditionalOperationQueue() : OperationQueue()
                let trips = Self.fewestTrips { Self.run(on: queue) { ConditionalOperation() } }
                Swift.print("lock trips, \(kind): \(trips)")
                #expect(trips <= Self.bound(linux: bound))
            }

            @Test func anExclusiveOperation() {
                let queue = ConditionalOperationQueue()
                let trips = Self.fewestTrips {
                    Self.run(on: queue) {
                        let operation = ConditionalOperation()
                        operation.addCondition(MutuallyExclusive(category: "LockTripTests"))
                        return operation
                    }
                }
                Swift.print("lock trips, exclusive, ConditionalOperationQueue: \(trips)")
                // 12, one more since S19 (`MutuallyExclusive(category:)` checks, in the
                // controller, that the category was given no other limit), one fewer since the
                // queue admits an operation in one trip.
                #expect(trips <= Self.bound(linux: 12))
            }

            /// A plain queue under swift-corelibs-foundation asks every waiting operation
            /// `isReady` on each scheduling pass; once it answered `false`, those answers take no lock.
            @Test(.enabled(if: LockFreeReadiness.isKept))
            func aWaitingOperationAnswersIsReadyWithoutALock() {
                let dependency = ConditionalOperation()
                let waitingForADependency = ConditionalOperation()
                waitingForADependency.addDependency(dependency)
                let waitingForACondition = ConditionalOperation()
                waitingForACondition.addCondition(Unanswered())
                let waiting = [waitingForADependency, waitingForACondition]
                // The first answers take the lock: admission, then a `false` recorded as answered.
                for _ in 0..<2 {
                    for operation in waiting { #expect(!operation.isReady) }
                }
                _ = LockCounter.take()
                for _ in 0..<100 {
                    for operation in waiting { #expect(!operation.isReady && !operation.isFinished) }
                }
                #expect(LockCounter.take() == 0)
                for operation in waiting { operation.cancel() }
                for operation in waiting { #expect(operation.isReady) }
            }

            /// The trips of `cancel` on an executing operation, its finish included: the fewest of 20.
            static func cancelTrips(_ cancel: (ConditionalOperation) -> Void) -> Int {
                (0..<20).map { _ in
                    let operation = ProbeOperation(.never)  // executes until cancelled
                    operation.start()
                    _ = LockCounter.take()
                    cancel(operation)
                    return LockCounter.take()
                }.min() ?? 0
            }

            /// `cancel(with:)` records its error in the cancel's own trip: it costs what `cancel()` does.
            @Test func aCancelWithAnErrorTakesTheTripsOfACancel() {
                let plain = Self.cancelTrips { $0.cancel() }
                let withError = Self.cancelTrips { $0.cancel(with: CancellationError()) }
                Swift.print("lock trips, cancel while executing: \(plain), cancel(with:): \(withError)")
                #expect(withError == plain)
            }

            /// A condition that never answers: its operation stays `evaluating` until cancelled.
            struct Unanswered: OperationCondition {
                func evaluate(
                    for operation: ConditionalOperation,
                    completion: @escaping @Sendable (OperationConditionResult) -> Void
                ) {}
            }

            @Test func anOperationWithAConditionAndAnObserver() {
                let queue = OperationQueue()
                let trips = Self.fewestTrips {
                    Self.run(on: queue) {
                        let operation = ConditionalOperation()
                        operation.addCondition(BlockCondition { true })
                        operation.addObserver(BlockObserver(didFinish: { _, _ in }))
                        return operation
                    }
                }
                Swift.print("lock trips, condition + observer, OperationQueue: \(trips)")
                #expect(trips <= Self.bound(linux: 10))
            }
        }
    }
#endif
