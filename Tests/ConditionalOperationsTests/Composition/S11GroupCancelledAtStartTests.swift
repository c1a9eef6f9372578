import ConditionalOperationsTesting
import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests.CompositionTests {
    /// S11: a group cancelled as it starts (by a `didStart` observer, a zero timeout, or another
    /// thread while `didStart` is delivered) still runs every child, cancelled, and finishes only
    /// after each of them finished. S1: its `execute()` is not called.
    @Suite(.serialized) struct S11GroupCancelledAtStartTests {
        typealias Executor = ConditionalOperationsTests.CompositionTests.S11GroupOperationTests.Executor

        /// A group of a child that finishes only when cancelled, a plain one and a nested group
        /// (whose child finishes only when cancelled), whose `didFinish` observer records whether
        /// every child had finished by then.
        /// Counts the calls of `execute()` (S1: none once a `didStart` observer cancelled it), and
        /// signals each cancel.
        final class CountingGroup: GroupOperation, @unchecked Sendable {  // stored state: lets only
            let executions = Counter()
            let cancelled = DispatchSemaphore(value: 0)

            override func execute() {
                executions.increment()
                super.execute()
            }

            override func cancel() {
                super.cancel()
                cancelled.signal()
            }

            /// A `didStart` observer returning only once the group was cancelled (by someone else).
            func waitForACancelWhileStarting() {
                addObserver(
                    BlockObserver(didStart: { _ in _ = self.cancelled.wait(timeout: .now() + 10) }))
            }
        }

        struct Probe {
            let group: CountingGroup
            let children: [Foundation.Operation]
            let childrenDone: Latch
            let childrenFinishedFirst: Box<Bool>

            init() {
                let children: [Foundation.Operation] = [
                    ProbeOperation(.never), BlockOperation {},
                    GroupOperation(operations: [ProbeOperation(.never)]),
                ]
                let group = CountingGroup(operations: children)
                let childrenFinishedFirst = Box(false)
                group.addObserver(
                    BlockObserver(didFinish: { _, _ in
                        childrenFinishedFirst.value = children.allSatisfy(\.isFinished)
                    }))
                self.group = group
                self.children = children
                self.childrenDone = completionLatch(children)
                self.childrenFinishedFirst = childrenFinishedFirst
            }

            /// Waits a bounded while for the group and its children, then checks S11. Returns
            /// whether it held.
            @discardableResult
            func expectEveryChildFinishedBeforeTheGroup() async throws -> Bool {
                try await group.untilFinished(timeout: .seconds(10))
                let childrenFinished = await childrenDone.wait(seconds: 10)
                #expect(childrenFinished, "every child of the cancelled group finished")
                #expect(childrenFinishedFirst.value, "the group finished only after all its children")
                #expect(group.isCancelled)
                #expect(children[0].isCancelled && children[2].isCancelled)
                return childrenFinished && childrenFinishedFirst.value
            }
        }

        /// Keeps the thread busy (without sleeping) for about `microseconds`.
        static func work(microseconds: Int) {
            let end = DispatchTime.now().uptimeNanoseconds + UInt64(microseconds) * 1000
            while DispatchTime.now().uptimeNanoseconds < end {}
        }

        @Test(arguments: Executor.allCases)
        func S11_aGroupCancelledByADidStartObserverRunsEveryChildBeforeFinishing(executor: Executor)
            async throws
        {
            let probe = Probe()
            probe.group.addObserver(BlockObserver(didStart: { $0.cancel() }))
            executor.run(probe.group)
            try await probe.expectEveryChildFinishedBeforeTheGroup()
            #expect(probe.group.executions.current == 0, "S1: execute() is not called")
            #expect((probe.children[0] as? ProbeOperation)?.executions.current == 0)
        }

        @Test(arguments: Executor.allCases)
        func S11_aGroupFinishedByADidStartObserverRunsEveryChildBeforeFinishing(executor: Executor)
            async throws
        {
            let probe = Probe()
            probe.group.addObserver(BlockObserver(didStart: { $0.finish(errors: [TestError(1)]) }))
            probe.group.addObserver(BlockObserver(didStart: { $0.finish(errors: [TestError(2)]) }))
            executor.run(probe.group)
            try await probe.group.untilFinished(timeout: .seconds(10))
            #expect(await probe.childrenDone.wait(seconds: 10), "every child of the finished group finished")
            #expect(probe.childrenFinishedFirst.value, "the group finished only after all its children")
            #expect(probe.group.executions.current == 0, "S1: execute() is not called")
            #expect(testErrorIDs(probe.group.errors) == [1], "S6: the first finish wins")
        }

        @Test(arguments: Executor.allCases)
        func S11_aGroupWithAZeroTimeoutRunsEveryChildBeforeFinishing(executor: Executor) async throws {
            let probe = Probe()
            probe.group.addObserver(TimeoutObserver(timeout: .seconds(0)))
            probe.group.waitForACancelWhileStarting()  // the timer fires while didStart is delivered
            executor.run(probe.group)
            try await probe.expectEveryChildFinishedBeforeTheGroup()
            #expect(
                probe.group.errors.contains {
                    if case .timedOut = $0 as? OperationError { true } else { false }
                })
        }

        @Test(arguments: Executor.allCases)
        func S11_aGroupCancelledFromAnotherThreadWhileDidStartIsDeliveredRunsEveryChildBeforeFinishing(
            executor: Executor
        ) async throws {
            let probe = Probe()
            probe.group.addObserver(
                BlockObserver(didStart: { group in DispatchQueue.global().async { group.cancel() } }))
            probe.group.waitForACancelWhileStarting()
            executor.run(probe.group)
            try await probe.expectEveryChildFinishedBeforeTheGroup()
            #expect(probe.group.executions.current == 0, "S1: execute() is not called")
        }

        @Test func S11_aGroupCancelledFromAnotherThreadAsItStartsRunsEveryChildBeforeFinishing() async throws
        {
            for round in 0..<200 {
                let probe = Probe()
                // Delivering the start takes a while; the cancel comes during it or after it.
                probe.group.addObserver(
                    BlockObserver(didStart: { group in
                        DispatchQueue.global().async {
                            Self.work(microseconds: (round * 7) % 200)
                            group.cancel()
                        }
                        Self.work(microseconds: 100)
                    }))
                let queue: OperationQueue =
                    round.isMultiple(of: 2) ? ConditionalOperationQueue() : OperationQueue()
                queue.addOperation(probe.group)
                guard try await probe.expectEveryChildFinishedBeforeTheGroup() else { return }
            }
        }
    }
}
