import ConditionalOperationsTesting
import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests.CompositionTests {
    /// S11: a group finishes once every child (and what they produce) finished, with all their
    /// errors; cancelling it cancels every child; children may be added while it runs.
    @Suite struct S11GroupOperationTests {
        /// A group that adds children from `execute()`, before starting them, and from
        /// `child(_:didFinishWith:)`.
        final class GrowingGroup: GroupOperation, @unchecked Sendable {  // stored state: lets only
            let fromExecute: ProbeOperation
            let fromHook: ProbeOperation
            let heard = Recorder()

            init(operations: [Foundation.Operation], fromExecute: ProbeOperation, fromHook: ProbeOperation) {
                self.fromExecute = fromExecute
                self.fromHook = fromHook
                super.init(operations: operations)
            }

            override func execute() {
                addOperation(fromExecute)
                super.execute()
            }

            override func child(_ child: Foundation.Operation, didFinishWith errors: [any Error])
                -> [any Error]
            {
                heard.record(child.name ?? "?")
                if child === fromExecute { addOperation(fromHook) }
                return errors
            }
        }

        static func named<T: Foundation.Operation>(_ operation: T, _ name: String) -> T {
            operation.name = name
            return operation
        }

        enum Executor: String, CaseIterable, Sendable {
            case plainQueue, conditionalQueue, manualStart

            func run(_ operation: Foundation.Operation) {
                switch self {
                case .plainQueue: OperationQueue().addOperation(operation)
                case .conditionalQueue: ConditionalOperationQueue().addOperation(operation)
                case .manualStart: operation.start()
                }
            }
        }

        @Test(arguments: Executor.allCases)
        func S11_theGroupFinishesOnceEveryChildFinishedWithAllTheirErrors(executor: Executor) async {
            let children: [Foundation.Operation] = [
                ProbeOperation(.finishWith([TestError(1)])),
                ProbeOperation(.finishLater),
                BlockOperation {},
                ProbeOperation(.finishWith([TestError(2), TestError(3)])),
                ValueOperation<Int>(.failure(TestError(4)), later: true),
            ]
            let group = GroupOperation(operations: children)
            let allFinishedFirst = Box(false)
            group.addObserver(
                BlockObserver(didFinish: { _, _ in
                    allFinishedFirst.value = children.allSatisfy(\.isFinished)
                }))
            executor.run(group)
            await group.untilFinished()
            #expect(allFinishedFirst.value, "every child finished before the group's observers heard of it")
            #expect(testErrorIDs(group.errors) == [1, 2, 3, 4])
            #expect(group.failed)
            #expect(!group.isCancelled)
        }

        @Test func S11_nestedGroupsPassTheirChildrensErrorsUp() async {
            let innermost = GroupOperation(operations: [ProbeOperation(.finishWith([TestError(3)]))])
            let inner = GroupOperation(operations: [ProbeOperation(.finishWith([TestError(2)])), innermost])
            let outer = GroupOperation(operations: [inner, ProbeOperation(.finishWith([TestError(1)]))])
            ConditionalOperationQueue().addOperation(outer)
            await outer.untilFinished()
            #expect(testErrorIDs(inner.errors) == [2, 3])
            #expect(testErrorIDs(outer.errors) == [1, 2, 3])
            #expect(inner.isFinished && innermost.isFinished)
        }

        @Test func S11_anEmptyGroupFinishesAtOnceWithoutErrors() async {
            let group = GroupOperation()
            let observer = RecordingObserver()
            group.addObserver(observer)
            OperationQueue().addOperation(group)
            await group.untilFinished()
            #expect(group.errors.isEmpty)
            #expect(observer.callbacks == ["didStart", "didFinish"])
        }

        @Test func S11_childrenAddedWhileTheGroupRunsAreWaitedFor() async {
            let fromExecute = Self.named(ProbeOperation(.finishLater), "fromExecute")
            let fromHook = Self.named(ProbeOperation(.finishWith([TestError(3)])), "fromHook")
            let fromObserver = Self.named(ProbeOperation(.finishWith([TestError(2)])), "fromObserver")
            let fromChild = Self.named(ProbeOperation(.finishLater), "fromChild")
            let observed = Self.named(ProbeOperation(.finishLater), "observed")
            let group = GrowingGroup(operations: [observed], fromExecute: fromExecute, fromHook: fromHook)
            observed.addObserver(BlockObserver(didFinish: { _, _ in group.addOperation(fromObserver) }))
            let adding = Self.named(BlockOperation { group.addOperation(fromChild) }, "adding")
            group.addOperation(adding)
            let allFinishedFirst = Box(false)
            let late = [fromExecute, fromHook, fromObserver, fromChild]
            group.addObserver(
                BlockObserver(didFinish: { _, _ in allFinishedFirst.value = late.allSatisfy(\.isFinished) }))
            OperationQueue().addOperation(group)
            await group.untilFinished()
            #expect(allFinishedFirst.value)
            #expect(late.allSatisfy { $0.executions.current == 1 })
            #expect(testErrorIDs(group.errors) == [2, 3])
            #expect(
                Set(group.heard.all) == [
                    "observed", "adding", "fromExecute", "fromHook", "fromObserver", "fromChild",
                ])
        }

        @Test func S11_whatChildrenProduceIsPartOfTheGroup() async {
            let produced = ProbeOperation(.finishWith([TestError(7)]))
            let producedPlain = BlockOperation {}
            let producer = ProbeOperation(.never)
            let group = GroupOperation(operations: [producer])
            let producedFinishedFirst = Box(false)
            group.addObserver(
                BlockObserver(didFinish: { _, _ in
                    producedFinishedFirst.value = produced.isFinished && producedPlain.isFinished
                }))
            OperationQueue().addOperation(group)
            #expect(await producer.executing.wait())
            producer.produceOperation(produced)
            producer.produceOperation(producedPlain)
            producer.finish()
            await group.untilFinished()
            #expect(producedFinishedFirst.value)
            #expect(testErrorIDs(group.errors) == [7])
        }

        @Test func S11_conditionDependenciesOfChildrenRunInTheGroup() async {
            let condition = ConditionalOperationsTests.S3ConditionDependencyTests.NeedsSetup()
            let child = ProbeOperation()
            child.addCondition(condition)
            let group = GroupOperation(operations: [child])
            OperationQueue().addOperation(group)
            await group.untilFinished()
            #expect(condition.asked.current == 1)
            #expect(condition.setup.isFinished)
            #expect(child.executions.current == 1)
        }

        @Test func S5_S11_cancellingTheGroupCancelsEveryChildAndItFinishesOnceTheyDid() async {
            let slow = ProbeOperation(.never, finishesWhenCancelled: false)  // finishes when told
            let quick = ProbeOperation(.never)
            let waiting = ProbeOperation()
            waiting.addDependency(slow)
            let nested = GroupOperation(operations: [ProbeOperation(.never)])
            let group = GroupOperation(operations: [slow, quick, waiting, nested])
            let observer = RecordingObserver()
            group.addObserver(observer)
            let queue = OperationQueue()
            queue.addOperation(group)
            #expect(await slow.executing.wait())
            #expect(await quick.executing.wait())
            group.cancel(with: TestError(1))
            #expect([slow, quick, waiting, nested].allSatisfy { $0.isCancelled })
            await waitUntil(seconds: 10) { quick.isFinished && nested.isFinished && waiting.isFinished }
            #expect(quick.isFinished && nested.isFinished && waiting.isFinished)
            #expect(group.state == .executing, "the group waits for its last child (S5)")
            #expect(!group.isFinished)
            slow.finish(error: TestError(2))
            await group.untilFinished()
            #expect(testErrorIDs(group.errors) == [1, 2])
            #expect(waiting.executions.current == 0)
            #expect(observer.callbacks == ["didStart", "didCancel", "didFinish"])
            #expect(observer.overlapCount == 0)
        }

        @Test func S11_aChildAddedToACancelledGroupIsCancelled() async {
            let slow = ProbeOperation(.never, finishesWhenCancelled: false)
            let group = GroupOperation(operations: [slow])
            OperationQueue().addOperation(group)
            #expect(await slow.executing.wait())
            group.cancel()
            let late = ProbeOperation()
            group.addOperation(late)
            #expect(late.isCancelled)
            slow.finish()
            await group.untilFinished()
            #expect(late.isFinished, "the group waited for it")
            #expect(late.executions.current == 0)
        }

        @Test func S4_S11_aGroupCancelledBeforeItExecutesCancelsItsChildrenAndEachStillFinishes() async {
            let children = [ProbeOperation(), ProbeOperation()]
            let plain = BlockOperation {}
            let group = GroupOperation(operations: children + [plain])
            let observer = RecordingObserver()
            group.addObserver(observer)
            group.cancel()
            let addedAfter = ProbeOperation()
            group.addOperation(addedAfter)
            let all: [Foundation.Operation] = children + [plain, addedAfter]
            let done = completionLatch(all)
            OperationQueue().addOperation(group)
            await group.untilFinished()
            #expect(observer.callbacks == ["didCancel", "didFinish"])
            #expect(await done.wait(), "children that never ran still reach finished")
            #expect(all.allSatisfy { $0.isCancelled })
            #expect((children + [addedAfter]).allSatisfy { $0.executions.current == 0 })
        }

        @Test func S11_childrenWaitUntilTheGroupExecutes() async {
            let blocker = ProbeOperation(.never)
            let evaluated = Counter()
            let child = ProbeOperation()
            child.addCondition(BlockCondition { evaluated.increment() > 0 })
            let group = GroupOperation(operations: [child])
            group.addDependency(blocker)
            let queue = ConditionalOperationQueue()
            queue.add([group, blocker])
            #expect(await blocker.executing.wait())
            #expect(child.state == .initialized, "no child is admitted before the group executes")
            #expect(evaluated.current == 0)
            blocker.finish()
            await group.untilFinished()
            #expect(evaluated.current == 1)
            #expect(child.executions.current == 1)
        }

        @Test func S11_childrenRunWithTheGroupsQualityOfService() async {
            let seen = Box<QualityOfService?>(nil)
            let child = BlockOperation { seen.value = ConditionalOperationQueue.current?.qualityOfService }
            let group = GroupOperation(operations: [child])
            group.qualityOfService = .utility
            OperationQueue().addOperation(group)
            await group.untilFinished()
            #expect(seen.value == .utility)
        }

        @Test(arguments: 1...5)
        func S11_noChildsErrorsAreLostWhenChildrenFinishTogether(round: Int) async {
            let children = (0..<200).map { ProbeOperation(.finishWith([TestError($0)])) }
            let group = GroupOperation(operations: children)
            ConditionalOperationQueue().addOperation(group)
            await group.untilFinished()
            #expect(testErrorIDs(group.errors) == Array(0..<200))
        }

        @Test func S11_aChildAddedOnceTheGroupFinishedIsCancelledAndStillFinishes() async {
            let group = GroupOperation()
            OperationQueue().addOperation(group)
            await group.untilFinished()
            let late = ProbeOperation()
            let done = completionLatch([late])
            group.addOperation(late)
            #expect(await done.wait())
            #expect(late.isCancelled)
            #expect(late.executions.current == 0)
        }

        @Test func S12_aFinishedGroupHoldsNoQueueAndItsChildrenOnlyWhileItLives() async {
            let weakChild = WeakBox<ProbeOperation>()
            let seenQueue = WeakBox<OperationQueue>()
            let ranOnAQueue = Box(false)
            let group = GroupOperation()
            do {
                let child = ProbeOperation(.finishLater)
                weakChild.set(child)
                group.addOperation(child)
                group.addOperation(
                    BlockOperation {
                        ranOnAQueue.value = ConditionalOperationQueue.current != nil
                        seenQueue.set(ConditionalOperationQueue.current)
                    })
            }
            let weakGroup = WeakBox<GroupOperation>()
            weakGroup.set(group)
            OperationQueue().addOperation(group)
            await group.untilFinished()
            #expect(ranOnAQueue.value, "the children ran on the group's queue")
            await waitUntil(seconds: 10) { seenQueue.object == nil }
            #expect(seenQueue.object == nil, "the finished group holds no queue")
            #expect(weakChild.object != nil, "children lists its children as long as the group lives (S11)")
            _ = consume group
            await waitUntil(seconds: 10) { weakGroup.object == nil && weakChild.object == nil }
            #expect(weakGroup.object == nil)
            #expect(weakChild.object == nil, "the group let go of, nothing holds its child")
        }
    }
}
