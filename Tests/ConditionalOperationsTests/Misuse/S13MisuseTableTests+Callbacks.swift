import ConditionalOperationsTesting
import Dispatch
import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests.S13MisuseTableTests {
    // The rows of the misuse table about callbacks and dependencies: conditions that misbehave,
    // observers that add observers, an operation that depends on itself.
    // MARK: Conditions that misbehave

    @Test func S13_aConditionThatNeverAnswersLeavesTheOperationEvaluatingUntilCancelled() async throws {
        let silent = ManualCondition()  // never answered
        let operation = ProbeOperation()
        operation.addCondition(silent)
        operation.addObserver(TimeoutObserver(timeout: .seconds(0.05)))
        let observer = RecordingObserver()
        operation.addObserver(observer)
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.addOperation(operation)
        try await silent.waitUntilEvaluated(timeout: .seconds(20))
        // The queue keeps working: the waiting operation holds no slot and no thread.
        let unrelated = ProbeOperation()
        let unrelatedDone = completionLatch([unrelated])
        queue.addOperation(unrelated)
        #expect(await unrelatedDone.wait())
        // Past the timeout: a TimeoutObserver starts at didStart, which never comes.
        #expect(await Latch().wait(seconds: 0.2) == false)
        // What a user sees, and how to find it: the state says where it is stuck.
        #expect(operation.state == .evaluatingConditions)
        #expect(!operation.isReady)
        #expect(!operation.isFinished && !operation.isCancelled)
        let unfinishedDependencies = operation.dependencies.filter { !$0.isFinished }
        #expect(unfinishedDependencies.isEmpty, "nothing else to wait for")
        // Foundation drops `unrelated` a moment later
        await MisuseTable.waitUntil { queue.operationCount == 1 }
        #expect(queue.operationCount == 1, "it stays in its queue")
        #expect(observer.callbacks.isEmpty)
        // A cancel abandons the pending condition; a late answer is then ignored.
        let done = completionLatch([operation])
        operation.cancel()
        #expect(await done.wait())
        silent.answer(.satisfied)
        #expect(operation.executions.current == 0)
        #expect(observer.callbacks == ["didCancel", "didFinish"])
    }

    @Test(arguments: [true, false])
    func S2_aConditionThatAnswersTwiceCountsOnlyItsFirstAnswer(satisfiedFirst: Bool) async {
        let condition = MisuseTable.RepeatingCondition()
        let operation = ProbeOperation()
        operation.addCondition(condition)
        let done = completionLatch([operation])
        OperationQueue().addOperation(operation)
        #expect(await condition.evaluated.wait())
        condition.answer(satisfiedFirst ? .satisfied : .failed(TestError(1)))
        condition.answer(satisfiedFirst ? .failed(TestError(2)) : .satisfied)
        #expect(await done.wait())
        condition.answer(.failed(TestError(3)))  // after finishing: ignored too
        #expect(operation.executions.current == (satisfiedFirst ? 1 : 0))
        #expect(operation.errors as? [TestError] == (satisfiedFirst ? [] : [TestError(1)]))
    }

    @Test func S2_twoAnswersRacingFromTwoThreadsCountOnce() async {
        let operations = (0..<500).map { _ in
            let operation = ProbeOperation()
            operation.addCondition(MisuseTable.RacingCondition())
            return operation
        }
        let done = completionLatch(operations)
        OperationQueue().add(operations)
        #expect(await done.wait())
        for operation in operations {
            let failed = operation.errors.count == 1
            #expect(operation.errors.count <= 1)
            #expect(operation.executions.current == (failed ? 0 : 1))
            #expect(operation.hooks.all.count == 1)
        }
    }

    // MARK: Observers that add observers

    @Test func S1_anObserverAddedInDidStartHearsWhatComesAfter() async {
        let late = RecordingObserver()
        let operation = ProbeOperation(.finishLater)
        operation.addObserver(BlockObserver(didStart: { $0.addObserver(late) }))
        let done = completionLatch([operation])
        OperationQueue().addOperation(operation)
        #expect(await done.wait())
        #expect(late.callbacks == ["didFinish"], "not the didStart being delivered")
    }

    @Test func S1_anObserverAddedInDidFinishGetsDidFinishOnce() async {
        let late = RecordingObserver()
        let operation = ProbeOperation()
        operation.addObserver(BlockObserver(didFinish: { operation, _ in operation.addObserver(late) }))
        let done = completionLatch([operation])
        OperationQueue().addOperation(operation)
        #expect(await done.wait())
        #expect(late.callbacks == ["didFinish"])
        #expect(late.overlapCount == 0)
    }

    @Test func S1_anObserverAddedAfterFinishingGetsDidFinishAtOnce() async {
        let operation = ProbeOperation(.finishWith([TestError(4)]))
        operation.start()
        #expect(operation.isFinished)
        let late = Recorder()
        operation.addObserver(
            BlockObserver(didFinish: { _, errors in late.record("didFinish \(errors.count)") }))
        #expect(late.all == ["didFinish 1"], "synchronously, inside addObserver")
    }

    @Test func S1_anObserverThatAddsAnObserverInEveryCallbackNeitherDeadlocksNorOverlaps() async {
        let recorder = RecordingObserver()
        let operation = ProbeOperation(.never)
        operation.addObserver(MisuseTable.SpawningObserver(recorder: recorder, generations: 3))
        let done = completionLatch([operation])
        OperationQueue().addOperation(operation)
        #expect(await operation.executing.wait())
        operation.cancel()
        #expect(await done.wait())
        #expect(recorder.overlapCount == 0)
        #expect(recorder.callbacks.count(where: { $0 == "didFinish" }) >= 1)
    }

    // MARK: Dependencies on itself

    #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))  // exit tests: 6.2; no iOS
        @Test func S13_anOperationThatDependsOnItselfTraps() async {
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                MisuseTable.watchdog(seconds: 5)
                let operation = ConditionalOperation()
                operation.name = "Itself"
                operation.addDependency(operation)
            }
            let message = MisuseTable.text(result?.standardErrorContent)
            #expect(
                message.contains(
                    "ConditionalOperation 'Itself': addDependency(_:) of the operation itself (S13: an operation "
                        + "never depends on itself)"), "\(message)")
        }
    #endif

    #if os(Linux)  // swift-corelibs-foundation behaviour
        #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))  // exit tests: 6.2; no iOS
            @Test func S13_aPlainOperationThatDependsOnItselfDeadlocksInFoundationsAddDependency() async {
                // swift-corelibs-foundation's addDependency locks the dependency, then the receiver:
                // the same non-recursive lock twice. The calling thread blocks forever, holding the
                // operation's lock. Bounded here by a watchdog in the child process.
                await #expect(processExitsWith: .exitCode(MisuseTable.hangExitCode)) {
                    MisuseTable.watchdog(seconds: 1)
                    let operation = BlockOperation {}
                    operation.addDependency(operation)
                    exit(0)  // never reached
                }
            }
        #endif
    #endif

    #if os(Linux)  // swift-corelibs-foundation behaviour
        @Test func S9_aTwoOperationCycleOnAPlainQueueWaitsForeverUntilCancelled() async {
            let first = ProbeOperation()
            let second = ProbeOperation()
            first.addDependency(second)
            second.addDependency(first)
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 1
            queue.add([first, second])
            let unrelated = ProbeOperation()
            let unrelatedDone = completionLatch([unrelated])
            queue.addOperation(unrelated)
            #expect(await unrelatedDone.wait(), "the queue goes on around the cycle")
            #expect(first.state == .initialized && second.state == .initialized)
            #expect(!first.isReady && !second.isReady)
            // Foundation drops `unrelated` a moment later
            await MisuseTable.waitUntil { queue.operationCount == 2 }
            #expect(queue.operationCount == 2)
            let done = completionLatch([first, second])
            first.cancel()  // Foundation forgets the cancelled operation's dependencies
            #expect(await done.wait())
            #expect(first.executions.current == 0)
            #expect(second.executions.current == 1, "second ran once first finished")
        }
    #endif
}
