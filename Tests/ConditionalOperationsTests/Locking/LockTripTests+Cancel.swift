#if LOCK_COUNTING
    import Foundation
    import Testing

    @testable import ConditionalOperations

    extension ConditionalOperationsTests.LockTripTests {
        /// The trips of `cancel` on an executing operation made by `make`, the fewest of 20: each
        /// one is counted once `begin` returned, and finished afterwards by `end`.
        static func cancelTrips<Operation: ConditionalOperation>(
            _ make: () -> Operation, begin: (Operation) async -> Void, end: (Operation) async -> Void
        ) async -> Int {
            var fewest = Int.max
            for _ in 0..<20 {
                let operation = make()
                operation.start()
                await begin(operation)
                _ = LockCounter.take()
                operation.cancel()
                fewest = min(fewest, LockCounter.take())
                await end(operation)
            }
            return fewest
        }

        /// Work that waits, ignoring cancels, until opened; its lock is not counted.
        final class Gate: Sendable {
            private struct State {
                var waiter: CheckedContinuation<Void, Never>?
                var isOpen = false
            }
            private let state = Locked(State())

            var hasWaiter: Bool { state.withLock(counted: false) { $0.waiter != nil } }

            func wait() async {
                await withCheckedContinuation { continuation in
                    let isOpen = state.withLock(counted: false) { state in
                        if !state.isOpen { state.waiter = continuation }
                        return state.isOpen
                    }
                    if isOpen { continuation.resume() }
                }
            }

            func open() {
                state.withLock(counted: false) { state in
                    state.isOpen = true
                    defer { state.waiter = nil }
                    return state.waiter
                }?.resume()
            }
        }

        /// An `AsyncOperation` takes its task out in the cancel's own trip through the lock: 3
        /// trips for the cancel of one that runs (4 while the task was taken in a trip of its own),
        /// 2 of them the delivery of its cancel.
        @Test func cancellingAnExecutingAsyncOperation() async {
            var gates: [ObjectIdentifier: Gate] = [:]
            let trips = await Self.cancelTrips(
                {
                    let gate = Gate()
                    let operation = AsyncOperation<Void> { await gate.wait() }
                    gates[ObjectIdentifier(operation)] = gate
                    return operation
                },
                begin: { operation in
                    let gate = gates[ObjectIdentifier(operation)]!
                    await waitUntil { gate.hasWaiter }
                    #expect(gate.hasWaiter)
                },
                end: { operation in
                    gates[ObjectIdentifier(operation)]!.open()
                    await waitUntil { operation.isFinished }
                    #expect(operation.isFinished)
                })
            Swift.print("lock trips, cancel while executing, AsyncOperation: \(trips)")
            #expect(trips <= Self.bound(linux: 3))
        }

        /// A child that executes until finished by hand, also once cancelled.
        final class HeldChild: ConditionalOperation, @unchecked Sendable {  // stored state: a let
            let executing = Latch()
            override var finishesWhenCancelled: Bool { false }
            override func execute() { executing.countDown() }
        }

        /// A `GroupOperation` reaches its children in the cancel's own trip through its lock:
        /// 11 trips for the cancel of a running group of one child, that child's cancel included
        /// (13 while the group kept its children behind a lock of its own).
        @Test func cancellingARunningGroup() async {
            var children: [ObjectIdentifier: HeldChild] = [:]
            let trips = await Self.cancelTrips(
                {
                    let child = HeldChild()
                    let group = GroupOperation(operations: [child])
                    children[ObjectIdentifier(group)] = child
                    return group
                },
                begin: { group in
                    #expect(await children[ObjectIdentifier(group)]!.executing.wait())
                },
                end: { group in
                    children[ObjectIdentifier(group)]!.finish()
                    await waitUntil { group.isFinished }
                    #expect(group.isFinished)
                })
            Swift.print("lock trips, cancel while executing, group of 1 child: \(trips)")
            #expect(trips <= Self.bound(linux: 11))
        }
    }
#endif
