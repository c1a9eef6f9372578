import ConditionalOperationsTesting
import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests.CompositionTests {
    /// S11: however and whenever a group is cancelled, every child is cancelled and reaches
    /// `finished`, and the group finishes only after all of them did.
    @Suite struct S11CancelledGroupTests {
        /// A plain child that works a few milliseconds (without sleeping) unless cancelled.
        static func busyChild(milliseconds: Double) -> BlockOperation {
            BlockOperation {
                let end = Date(timeIntervalSinceNow: milliseconds / 1000)
                while Date() < end {}
            }
        }

        @Test func S11_groupsCancelledRightAfterBeingAddedFinishEveryChildBeforeThemselves() async {
            let conditionalQueue = ConditionalOperationQueue()
            let plainQueue = OperationQueue()
            var groups: [GroupOperation] = []
            let allDone = Latch(count: 600)
            let childrenFinishedFirst = Counter()
            for index in 0..<300 {
                let pair: [Foundation.Operation] = [
                    Self.busyChild(milliseconds: 2), ProbeOperation(.finishLater),
                ]
                for child in pair { child.completionBlock = { allDone.countDown() } }
                let group = GroupOperation(operations: pair)
                group.addObserver(
                    BlockObserver(didFinish: { _, _ in
                        if pair.allSatisfy(\.isFinished) { childrenFinishedFirst.increment() }
                    }))
                groups.append(group)
                (index.isMultiple(of: 2) ? conditionalQueue : plainQueue).addOperation(group)
                if index % 3 != 0 { group.cancel() }
            }
            for group in groups { await group.untilFinished() }
            #expect(await allDone.wait(), "every child of a cancelled group reaches finished")
            #expect(childrenFinishedFirst.current == 300, "each group finished after all its children")
        }

        @Test(arguments: ConditionalOperationsTests.CompositionTests.S11GroupOperationTests.Executor.allCases)
        func S11_aChildHeldBackByADependencyIsCancelledWithItsGroupAndNeverExecutes(
            executor: ConditionalOperationsTests.CompositionTests.S11GroupOperationTests.Executor
        ) async {
            let first = ProbeOperation(.never)
            let second = ProbeOperation()
            second.addDependency(first)
            let group = GroupOperation(operations: [first, second])
            let done = completionLatch([first, second])
            executor.run(group)
            #expect(await first.executing.wait())
            group.cancel()
            await group.untilFinished()
            #expect(await done.wait())
            #expect(first.isCancelled && second.isCancelled)
            #expect(second.executions.current == 0, "a child held back by a dependency never executes")
        }

        @Test(arguments: ConditionalOperationsTests.CompositionTests.S11GroupOperationTests.Executor.allCases)
        func S11_aChildHeldBackByAConditionIsCancelledWithItsGroupAndNeverExecutes(
            executor: ConditionalOperationsTests.CompositionTests.S11GroupOperationTests.Executor
        ) async throws {
            let condition = ManualCondition()
            let held = ProbeOperation()
            held.addCondition(condition)
            let running = ProbeOperation(.never)
            let group = GroupOperation(operations: [held, running])
            let done = completionLatch([held, running])
            executor.run(group)
            try await condition.waitUntilEvaluated(timeout: .seconds(20))
            #expect(await running.executing.wait())
            group.cancel()
            condition.answer(.satisfied)  // too late: the cancel abandoned the condition
            await group.untilFinished()
            #expect(await done.wait())
            #expect(held.isCancelled)
            #expect(held.executions.current == 0)
        }

        @Test(arguments: ConditionalOperationsTests.CompositionTests.S11GroupOperationTests.Executor.allCases)
        func S11_aGroupCancelledBeforeItExecutesFinishesOnlyAfterEveryChild(
            executor: ConditionalOperationsTests.CompositionTests.S11GroupOperationTests.Executor
        ) async {
            let slow = ProbeOperation(.finishLater)
            let plain = Self.busyChild(milliseconds: 5)
            let nested = GroupOperation(operations: [ProbeOperation(.finishLater)])
            let group = GroupOperation(operations: [slow, plain, nested])
            let observer = RecordingObserver()
            group.addObserver(observer)
            let childrenFinishedFirst = Box(false)
            group.addObserver(
                BlockObserver(didFinish: { _, _ in
                    childrenFinishedFirst.value = [slow, plain, nested].allSatisfy(\.isFinished)
                }))
            group.cancel(with: TestError(1))
            executor.run(group)
            await group.untilFinished()
            #expect(childrenFinishedFirst.value)
            #expect(observer.callbacks == ["didCancel", "didFinish"], "the group itself never executes")
            let children: [Foundation.Operation] = [slow, plain, nested]
            #expect(children.allSatisfy { $0.isCancelled })
            #expect(slow.executions.current == 0)
            #expect(testErrorIDs(group.errors) == [1])
        }

        @Test func S11_aGroupWhoseConditionFailedFinishesItsChildrenFirst() async {
            let child = ProbeOperation()
            let group = GroupOperation(operations: [child])
            group.addCondition(BlockCondition(name: "never") { false })
            let childFinishedFirst = Box(false)
            group.addObserver(
                BlockObserver(didFinish: { _, _ in childFinishedFirst.value = child.isFinished }))
            OperationQueue().addOperation(group)
            await group.untilFinished()
            #expect(
                childFinishedFirst.value, "nobody waiting on a child of a group that never ran waits forever")
            #expect(child.isCancelled)
            #expect(child.executions.current == 0)
            #expect(!group.isCancelled, "a failed condition is not a cancellation (S2)")
        }
    }
}
