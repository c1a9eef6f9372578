import ConditionalOperationsTesting
import Dispatch
import Foundation
import Testing

@testable import ConditionalOperations
@testable import ConditionalOperationsMachines

extension ConditionalOperationsTests {
    /// The misuse table of the DocC article Misuse.md (S13): each misuse, what happens, tested.
    ///
    /// Two rows are tested in `S13MisuseTests` and not repeated here: `start()` twice
    /// (`S13_startingTwiceTraps`) and a condition added after an `isReady` query admitted the
    /// operation (`S13_addingAConditionAfterEvaluationTraps`). Traps and hangs run in exit tests
    /// (a child process), so a crash or a deadlock can't take the suite down; a hang is bounded by
    /// a watchdog in the child that exits with ``MisuseTable/hangExitCode``. Rows that describe
    /// swift-corelibs-foundation's own behaviour run on Linux only.
    @Suite struct S13MisuseTableTests {
        // MARK: Conditions added too late

        #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))  // exit tests: 6.2; no iOS
            @Test func S13_addingAConditionWhileConditionsAreEvaluatedTraps() async {
                let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                    let operation = ConditionalOperation()
                    operation.name = "Evaluating"
                    operation.addCondition(MisuseTable.SilentCondition())
                    OperationQueue().addOperation(operation)
                    await MisuseTable.waitUntil { operation.state == .evaluatingConditions }
                    operation.addCondition(BlockCondition(name: "too late") { true })
                }
                let message = MisuseTable.text(result?.standardErrorContent)
                #expect(message.contains("ConditionalOperation 'Evaluating'"))
                #expect(message.contains("too late"))
                #expect(message.contains("S13"))
            }
        #endif

        #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))  // exit tests: 6.2; no iOS
            @Test
            func S13_anIsReadyQueryThatFindsEveryDependencyFinishedAdmitsTheOperationSoALaterConditionTraps()
                async
            {
                // With every dependency finished, an `isReady` query admits the operation (the
                // `pending` state): its conditions are asked for then.
                let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                    let finished = BlockOperation {}
                    finished.start()
                    let operation = ConditionalOperation()
                    operation.name = "Admitted"
                    operation.addDependency(finished)
                    _ = operation.isReady
                    operation.addCondition(BlockCondition(name: "after isReady") { true })
                }
                let message = MisuseTable.text(result?.standardErrorContent)
                #expect(message.contains("ConditionalOperation 'Admitted'"))
                #expect(message.contains("S13"))
            }
        #endif

        /// `addDependency(_:)` alone admits nothing, even of a dependency that finished already: a
        /// condition added afterwards is evaluated as any other (S2).
        @Test func S13_aConditionAddedAfterADependencyThatAlreadyFinishedIsEvaluated() async {
            let finished = BlockOperation {}
            finished.start()
            let operation = ProbeOperation()
            operation.addDependency(finished)
            operation.addCondition(BlockCondition(name: "after addDependency") { false })
            #expect(operation.state == .initialized)
            let done = completionLatch([operation])
            ConditionalOperationQueue().addOperation(operation)
            #expect(await done.wait())
            #expect(operation.failed, "the condition added after addDependency was evaluated")
            #expect(operation.dependencies.count == 1)
        }

        @Test func S13_aConditionAddedToACancelledAdmittedOperationIsIgnored() async {
            let operation = ProbeOperation()
            _ = operation.isReady  // admitted
            operation.cancel()
            operation.addCondition(BlockCondition { false })  // no trap: nothing will evaluate it
            let done = completionLatch([operation])
            OperationQueue().addOperation(operation)
            #expect(await done.wait())
            #expect(operation.executions.current == 0)
            #expect(operation.errors.isEmpty, "the ignored condition added no failure")
        }

        // MARK: Queues

        #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))  // exit tests: 6.2; no iOS
            @Test func S13_settingTheCoalescingKeyAfterAddingTraps() async {
                let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                    let operation = ConditionalOperation()
                    operation.name = "Late"
                    operation.addCondition(MisuseTable.SilentCondition())
                    ConditionalOperationQueue().addOperation(operation)
                    operation.coalescingKey = "too late"
                }
                let message = MisuseTable.text(result?.standardErrorContent)
                #expect(message.contains("ConditionalOperation 'Late'"))
                #expect(message.contains("coalescingKey"))
                #expect(message.contains("S13") && message.contains("S27"))
            }
        #endif

        #if os(Linux)  // swift-corelibs-foundation behaviour
            #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))  // exit tests: 6.2; no iOS
                @Test func S13_addingAnOperationToTwoQueuesTrapsInFoundation() async {
                    let result = await #expect(
                        processExitsWith: .failure, observing: [\.standardErrorContent]
                    ) {
                        let operation = ConditionalOperation()
                        let first = OperationQueue()
                        first.isSuspended = true
                        first.addOperation(operation)
                        OperationQueue().addOperation(operation)
                    }
                    let message = MisuseTable.text(result?.standardErrorContent)
                    #expect(message.contains(MisuseTable.foundationEnqueueTrap))
                }
            #endif
        #endif

        #if os(Linux)  // swift-corelibs-foundation behaviour
            #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))  // exit tests: 6.2; no iOS
                @Test func S13_addingAnOperationToTheSameQueueTwiceTrapsInFoundation() async {
                    let result = await #expect(
                        processExitsWith: .failure, observing: [\.standardErrorContent]
                    ) {
                        let operation = ConditionalOperation()
                        let queue = OperationQueue()
                        queue.isSuspended = true
                        queue.addOperation(operation)
                        queue.addOperation(operation)
                    }
                    let message = MisuseTable.text(result?.standardErrorContent)
                    #expect(message.contains(MisuseTable.foundationEnqueueTrap))
                }
            #endif
        #endif

        #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))  // exit tests: 6.2; no iOS
            @Test func S13_addingAnOperationToTwoConditionalOperationQueuesTraps() async {
                let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                    let operation = ConditionalOperation()
                    operation.name = "Two"
                    let first = ConditionalOperationQueue()
                    first.isSuspended = true
                    first.addOperation(operation)
                    ConditionalOperationQueue().addOperation(operation)
                }
                let message = MisuseTable.text(result?.standardErrorContent)
                #expect(
                    message.contains(
                        "ConditionalOperation 'Two': added to a queue while already in one or started (S13"))
            }
        #endif

        #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))  // exit tests: 6.2; no iOS
            /// A `ConditionalOperationQueue` runs plain operations itself too: it traps where
            /// Foundation's queue would have.
            @Test func S13_addingAPlainOperationTwiceToAConditionalOperationQueueTraps() async {
                let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                    let operation = BlockOperation {}
                    operation.name = "Plain"
                    let queue = ConditionalOperationQueue()
                    queue.isSuspended = true
                    queue.addOperation(operation)
                    queue.addOperation(operation)
                }
                let message = MisuseTable.text(result?.standardErrorContent)
                #expect(message.contains("BlockOperation 'Plain': added to a queue while already in one"))
            }
        #endif

        #if os(Linux)  // swift-corelibs-foundation behaviour
            #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))  // exit tests: 6.2; no iOS
                /// Foundation's queue tells nobody it took an operation, and a
                /// `ConditionalOperationQueue` runs its operations itself: an operation in both is
                /// not trapped, runs once, and Foundation complains (Misuse.md says what follows).
                @Test func S13_anOperationInAFoundationQueueAndAConditionalOperationQueueRunsOnce() async {
                    let result = await #expect(
                        processExitsWith: .success,
                        observing: [\.standardOutputContent, \.standardErrorContent]
                    ) {
                        let operation = ProbeOperation()
                        let foundation = OperationQueue()
                        foundation.isSuspended = true  // and left so: it would schedule a finished operation
                        foundation.addOperation(operation)
                        ConditionalOperationQueue().addOperation(operation)
                        await operation.untilFinished()
                        MisuseTable.say("executed \(operation.executions.current) time(s)")
                        withExtendedLifetime(foundation) {}
                    }
                    let output =
                        MisuseTable.text(result?.standardOutputContent)
                        + MisuseTable.text(result?.standardErrorContent)
                    #expect(output.contains("executed 1 time(s)"))
                }
            #endif
        #endif

        #if os(Linux)  // swift-corelibs-foundation behaviour
            #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))  // exit tests: 6.2; no iOS
                @Test func S13_addingAFinishedOperationToAQueueTrapsInFoundation() async {
                    let result = await #expect(
                        processExitsWith: .failure, observing: [\.standardErrorContent]
                    ) {
                        let operation = ConditionalOperation()
                        operation.start()  // the default execute() finishes at once
                        OperationQueue().addOperation(operation)
                    }
                    let message = MisuseTable.text(result?.standardErrorContent)
                    #expect(message.contains(MisuseTable.foundationEnqueueTrap))
                }
            #endif
        #endif

        #if os(Linux)  // swift-corelibs-foundation behaviour
            #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))  // exit tests: 6.2; no iOS
                @Test func S13_startingAnOperationByHandThenEnqueuingItTrapsWhenTheQueueStartsIt() async {
                    // Foundation accepts it (it has not executed yet); once its dependency finished, the
                    // queue's start() is the second one.
                    // It never finishes by itself: one that did could leave the queue before the queue
                    // starts it, and then nothing traps.
                    let result = await #expect(
                        processExitsWith: .failure, observing: [\.standardErrorContent]
                    ) {
                        let dependency = BlockOperation {}
                        let operation = ProbeOperation(.never)
                        operation.name = "Hand-started"
                        operation.addDependency(dependency)
                        operation.start()  // waits for its dependency
                        OperationQueue().addOperation(operation)
                        OperationQueue().addOperation(dependency)
                        if OperationHost.postsExecutingKVO {
                            DispatchQueue.global().asyncAfter(deadline: .now() + 4) {
                                MisuseTable.say("executed \(operation.executions.current), not by the queue")
                            }
                        }
                        await MisuseTable.hang(seconds: 5)
                    }
                    let message = MisuseTable.text(result?.standardErrorContent)
                    let trapped = message.contains("ProbeOperation 'Hand-started': start() called twice (S13")
                    if OperationHost.postsExecutingKVO {
                        // Foundation may hear `isExecuting` from the hand start before its queue
                        // dispatches the operation: then the queue never starts it, and it runs once.
                        #expect(trapped || message.contains("executed 1, not by the queue"), "\(message)")
                    } else {
                        #expect(trapped, "\(message)")
                    }
                }
            #endif
        #endif

        #if os(Linux)  // swift-corelibs-foundation behaviour
            #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))  // exit tests: 6.2; no iOS
                @Test func S13_startingAQueuedOperationByHandCrashesTheQueueOnceTheOperationIsReleased() async
                {
                    // The operation runs on the caller's thread and leaves the queue's count, but
                    // swift-corelibs-foundation's queue keeps an unretained pointer to it:
                    // once it is released, the queue's next scheduling pass reads freed memory. That is
                    // undefined behaviour: a SIGSEGV here, but under ThreadSanitizer (which quarantines freed
                    // memory) the child hangs until its watchdog ends it instead.
                    let result = await #expect(
                        processExitsWith: .failure, observing: [\.standardErrorContent]
                    ) {
                        let queue = OperationQueue()
                        queue.isSuspended = true
                        do {
                            let operation = ConditionalOperation()
                            queue.addOperation(operation)
                            operation.start()
                            guard operation.isFinished, queue.operationCount == 0 else { exit(3) }
                        }
                        queue.isSuspended = false  // reads the released operation
                        await MisuseTable.hang(seconds: 2)
                    }
                    #expect(result?.exitStatus != .exitCode(3), "it ran by hand and left the queue's count")
                    if !MisuseTable.isThreadSanitized {
                        let message = MisuseTable.text(result?.standardErrorContent)
                        #expect(!message.contains("watchdog"), "it crashed")
                    }
                }
            #endif
        #endif

        // MARK: finish

        @Test func S6_finishBeforeStartIsKeptAndANeverStartedOperationNeverFinishes() async {
            let operation = ProbeOperation()
            operation.finish(error: TestError(1))
            #expect(operation.state == .initialized)
            #expect(!operation.isFinished, "finishing waits for start(): nothing else will finish it")
            #expect(operation.isReady, "ready, so that a queue starts it at once")
            #expect(operation.state == .ready)
            // S6_finishBeforeExecutionFinishesWithoutExecutingOnceStarted covers the queue; by hand:
            operation.start()
            #expect(operation.isFinished)
            #expect(operation.executions.current == 0)
            #expect(operation.errors as? [TestError] == [TestError(1)])
        }

        #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))  // exit tests: 6.2; no iOS
            @Test func S6_finishingTwiceKeepsTheFirstAndLogsTheSecondInDebugBuilds() async {
                let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
                    let operation = ConditionalOperation()
                    operation.name = "Twice"
                    operation.finish(error: MisuseTable.Failure(1))
                    operation.start()
                    operation.finish(error: MisuseTable.Failure(2))
                    guard operation.errors.count == 1,
                        operation.errors.first as? MisuseTable.Failure == MisuseTable.Failure(1)
                    else { exit(3) }
                }
                let message = MisuseTable.text(result?.standardErrorContent)
                #if DEBUG
                    #expect(
                        message.contains("ConditionalOperation 'Twice': finish called again and ignored (S6"))
                #else
                    #expect(!message.contains("finish called again"))
                #endif
            }
        #endif

        @Test func S6_aSecondFinishInProcessChangesNothing() async {
            let operation = ProbeOperation(.finishWith([TestError(1)]))
            let observer = RecordingObserver()
            operation.addObserver(observer)
            let done = completionLatch([operation])
            OperationQueue().addOperation(operation)
            #expect(await done.wait())
            operation.finish(error: TestError(2))
            operation.finish()
            #expect(operation.errors as? [TestError] == [TestError(1)])
            #expect(observer.callbacks == ["didStart", "didFinish"])
            #expect(operation.hooks.all == ["finished(1)"])
        }
    }
}
