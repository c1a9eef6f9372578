#if LOCK_COUNTING
    import Foundation
    import Testing

    @testable import ConditionalOperations

    extension ConditionalOperationsTests.LockTripTests {
        final class SilentDelegate: ConditionalOperationQueueDelegate {}

        /// The queue admits an operation in one trip through its lock when nothing else is involved,
        /// two when a delegate, barrier, logger or shutdown is, a plain operation's route included.
        @Test func aNoOpOperationOnAQueueWithADelegate() {
            let delegate = SilentDelegate()
            let queue = ConditionalOperationQueue()
            queue.delegate = delegate
            let trips = Self.fewestTrips { Self.run(on: queue) { ConditionalOperation() } }
            Swift.print("lock trips, no-op, ConditionalOperationQueue with a delegate: \(trips)")
            // 9 when the queue looked for a way to admit it in one trip first.
            #expect(trips <= Self.bound(linux: 8))
            withExtendedLifetime(delegate) {}
        }

        /// A timeline costs an operation one trip through the timeline's lock as it is added and
        /// one as it finishes: its sink is added in the trip that enqueues it, its state changes
        /// are recorded in the trips that make them, and the queue tells of the timeline in the
        /// trip that registers it.
        @Test func aNoOpOperationOnAQueueRecordingATimeline() {
            let queue = ConditionalOperationQueue()
            queue.timeline = OperationTimeline()
            let trips = Self.fewestTrips { Self.run(on: queue) { ConditionalOperation() } }
            Swift.print("lock trips, no-op, ConditionalOperationQueue recording a timeline: \(trips)")
            // 18 when each recording had a lock of its own, taken at each change recorded; 11
            // when the timeline cost the queue a second trip to admit it; 10 when the sink was
            // added in a trip of its own.
            #expect(trips <= Self.bound(linux: 9))
        }

        @Test func aBlockOperationOnAConditionalOperationQueue() {
            let queue = ConditionalOperationQueue()
            let trips = Self.fewestTrips { Self.run(on: queue) { BlockOperation {} } }
            Swift.print("lock trips, BlockOperation, ConditionalOperationQueue: \(trips)")
            // 9 when a plain operation took two trips to be admitted; Foundation's threads make it
            // vary by two.
            #expect(trips <= Self.bound(linux: 8))
        }

        /// With a concurrency limit, a plain operation with an unfinished dependency waits in the
        /// queue's machine: its route is decided in the trip that registers it.
        @Test func aBlockOperationWaitingForItsDependencyOnALimitedQueue() {
            let queue = ConditionalOperationQueue()
            queue.maxConcurrentOperationCount = 1
            let trips = Self.fewestTrips {
                let dependency = BlockOperation {}
                let operation = BlockOperation {}
                operation.addDependency(dependency)
                queue.addOperation(operation)
                queue.addOperation(dependency)
                queue.waitUntilAllOperationsAreFinished()
            }
            Swift.print(
                "lock trips, BlockOperation and its dependency, limited ConditionalOperationQueue: \(trips)")
            // 23 to 27 when its admission took four trips and its route was decided apart; 18 to
            // 20 once it was decided in the registering trip; 21 to 23 since the dependent always
            // waits for a slot (it could run beside the holder of the only one), as Foundation's
            // threads happen to run.
            #expect(trips <= Self.bound(linux: 23))
        }

        /// A `ConditionalOperation` held for its dependency: the library wakes it itself when the
        /// dependency finished (a waiter registered in the dependency's trip, one trip of its own
        /// when woken), rather than wait for Foundation to read its `isReady`. The lives keep their
        /// operations until every life was counted: the dependent's deinit takes its dependency
        /// out of Foundation (4 trips), which counted only where this thread happened to let go of
        /// it last, or in the next life where a queue's thread did (24 or 28, as threads ran).
        @Test func aConditionalOperationWaitingForItsDependencyOnAConditionalOperationQueue() {
            let queue = ConditionalOperationQueue()
            var kept: [ConditionalOperation] = []
            let trips = Self.fewestTrips {
                let dependency = ConditionalOperation()
                let operation = ConditionalOperation()
                operation.addDependency(dependency)
                queue.addOperation(operation)
                queue.addOperation(dependency)
                queue.waitUntilAllOperationsAreFinished()
                kept += [operation, dependency]
            }
            kept.removeAll()
            Swift.print(
                "lock trips, ConditionalOperation and its dependency, ConditionalOperationQueue: \(trips)")
            // 26 while it waited for Foundation to read its `isReady`, 28 with a closure holding
            // it weakly; 24 since its dependency names it among its waiters (the wake moves it on
            // before Foundation's query, which then finds it ready).
            #expect(trips <= Self.bound(linux: 24))
        }
    }
#endif
