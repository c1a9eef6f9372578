import ConditionalOperationsTesting
import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests.CoalescingTests {
    /// S33: a coalescing join composes with dependencies: it is an edge of the dependency graph,
    /// and a joiner's own dependencies stay the library's to release.
    @Suite struct S33CoalescingComposeTests {
        /// A joiner of the operation that depends on it: the join closes a cycle, which finishes
        /// both with `dependencyCycle` (S9). Before, neither ever finished and the diagnosis said
        /// "waiting for 1 dependency".
        @Test func S33_aJoinThatClosesADependencyCycleFinishesItWithDependencyCycle() async {
            let queue = ConditionalOperationQueue()
            let first = CountedFetch(key: "profile")
            let second = CountedFetch(key: "profile")
            first.addDependency(second)
            queue.addOperation(first)
            queue.addOperation(second)  // joins `first`, which waits for it
            let outcome = await within {
                await first.untilFinished()
                await second.untilFinished()
            }
            #expect(outcome != nil, "\(first.diagnosis); \(second.diagnosis)")
            guard outcome != nil else { return first.cancel() }
            for operation in [first, second] {
                #expect(operation.errors.contains { ($0 as? OperationError) == .dependencyCycle })
                #expect(operation.executions.current == 0)
            }
            // The cycle is named, the join one of its edges.
            guard case .cycleBroken(let named) = first.diagnosis.reason else {
                Issue.record("not named: \(first.diagnosis)")
                return
            }
            #expect(named == [first.diagnosticName, second.diagnosticName])
        }

        /// A longer cycle through a join: the holder depends on a middle operation, which depends on
        /// the joiner.
        @Test func S33_aJoinClosingALongerCycleFinishesEveryOperationOfIt() async {
            let queue = ConditionalOperationQueue()
            let holder = CountedFetch(key: "profile")
            let middle = ClosureOperation<Void> { $0.finish() }
            let joiner = CountedFetch(key: "profile")
            holder.addDependency(middle)
            middle.addDependency(joiner)
            queue.addOperations([holder, middle, joiner], waitUntilFinished: false)
            let outcome = await within {
                for operation in [holder, middle, joiner] as [ConditionalOperation] {
                    await operation.untilFinished()
                }
            }
            #expect(outcome != nil, "\(holder.diagnosis); \(middle.diagnosis); \(joiner.diagnosis)")
            guard outcome != nil else { return holder.cancel() }
            #expect(middle.errors.contains { ($0 as? OperationError) == .dependencyCycle })
        }

        /// A joiner added by a waiter of a cancelled operation, which finished before its own
        /// dependency (the joiner) and which its queue forgets a moment later, finds no cycle
        /// through it: the holder waited for the cancelled one, no longer.
        @Test func S33_aJoinFindsNoCycleThroughAnOperationThatFinishedBeforeItsQueueForgotIt() async throws {
            let queue = ConditionalOperationQueue()
            let holder = CountedFetch(key: "profile")
            let cancelled = ProbeOperation()
            let joiner = CountedFetch(key: "profile")
            holder.addDependency(cancelled)
            cancelled.addDependency(joiner)
            // First among its waiters: before the holder's wake, which starts the holder.
            let joinerAdded = Latch()
            cancelled.whenFinished {
                queue.addOperation(joiner)
                joinerAdded.countDown()
            }
            queue.addOperations([holder, cancelled], waitUntilFinished: false)
            cancelled.cancel()
            #expect(await holder.executing.wait(seconds: 10))
            // Foundation's finish announcement may start the holder before the waiter ran.
            #expect(await joinerAdded.wait(seconds: 10))
            #expect(joiner.coalescedInto === holder)
            holder.release()
            let outcome = try #require(await within { try await joiner.value })
            #expect(try outcome.get() == 42)
            #expect(holder.errors.isEmpty && joiner.errors.isEmpty)
        }

        /// A join that closes no cycle is left alone: the joiner still shares its holder's result.
        @Test func S33_aJoinBesideADependencyClosesNoCycle() async throws {
            let queue = ConditionalOperationQueue()
            let before = ClosureOperation<Void> { $0.finish() }
            let holder = CountedFetch(key: "profile", finishesAtOnce: true)
            let joiner = CountedFetch(key: "profile")
            holder.addDependency(before)
            joiner.addDependency(before)
            queue.addOperations([holder, joiner, before], waitUntilFinished: false)
            let outcome = try #require(await within { try await joiner.value })
            #expect(try outcome.get() == 42)
            #expect(joiner.coalescedInto === holder)
        }

        #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))  // exit tests: 6.2; no iOS
            /// A joiner with an unfinished dependency finishes with the operation it joined, before
            /// that dependency; released while the dependency finishes on another thread, it is
            /// safe. Before, joining handed its dependencies to Foundation, whose finishing
            /// dependency then found the joiner being deallocated ("deallocated with non-zero retain
            /// count"), and the process aborted.
            @Test func S33_aJoinerReleasedWhileItsDependencyFinishesIsSafe() async {
                await #expect(processExitsWith: .success) {
                    MisuseTable.watchdog(seconds: 120)
                    let queue = ConditionalOperationQueue()
                    // Fewer under ThreadSanitizer, which slows every round several times over.
                    for _ in 0..<(MisuseTable.isThreadSanitized ? 300 : 2_000) {
                        let holder = CountedFetch(key: "profile")
                        queue.addOperation(holder)
                        // The dependency's finish and the joiner's release meet at this barrier.
                        let arrived = Locked(0)
                        let barrier: @Sendable () -> Void = {
                            arrived.withLock { $0 += 1 }
                            while arrived.withLock({ $0 }) < 2 {}
                        }
                        let dependency = ClosureOperation<Void> { operation in
                            DispatchQueue.global().async {
                                barrier()
                                operation.finish()
                            }
                        }
                        // The box holds the only reference once the queue let go of it.
                        let held = Locked<CountedFetch?>(CountedFetch(key: "profile"))
                        held.withLock { joiner in
                            joiner?.addDependency(dependency)
                            queue.addOperation(joiner!)
                        }
                        holder.release()
                        await held.withLock { $0 }!.untilFinished()
                        let dropped = Latch()
                        DispatchQueue.global().async {
                            barrier()
                            held.withLock { $0 = nil }
                            dropped.countDown()
                        }
                        queue.addOperation(dependency)
                        _ = await dropped.wait(seconds: 10)
                        await dependency.untilFinished()
                    }
                    await queue.waitUntilIdle()
                }
            }
        #endif
    }
}
