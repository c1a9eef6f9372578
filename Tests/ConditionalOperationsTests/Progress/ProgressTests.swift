import ConditionalOperationsTesting
import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests {
    /// An operation's `progress`: one unit completed when it finishes, cancelled with it, made only
    /// when asked for and let go of when it finishes (S12).
    @Suite struct ProgressTests {
        /// Reports four steps, each taken when the test says so.
        final class SteppingOperation: ConditionalOperation, @unchecked Sendable {  // stored state: a latch
            let executing = Latch()

            override func execute() {
                progress.totalUnitCount = 4
                executing.countDown()
            }

            func step() {
                progress.completedUnitCount += 1
            }
        }

        @Test func aFinishedOperationsProgressIsComplete() async throws {
            let operation = ProbeOperation()
            let progress = operation.progress
            #expect(progress.totalUnitCount == 1)
            #expect(progress.completedUnitCount == 0)
            OperationQueue().addOperation(operation)
            try await operation.untilFinished(timeout: .seconds(10))
            #expect(progress.completedUnitCount == 1)
            #expect(progress.fractionCompleted == 1)
            #expect(progress.isFinished)
            #expect(!progress.isCancelled)
        }

        @Test func aFailedOperationsProgressIsCompleteToo() async throws {
            let operation = ProbeOperation(.finishWith([TestError(1)]))
            let progress = operation.progress
            ConditionalOperationQueue().addOperation(operation)
            try await operation.untilFinished(timeout: .seconds(10))
            #expect(operation.failed)
            #expect(progress.fractionCompleted == 1)
        }

        @Test func aSubclassReportsItsSteps() async throws {
            let operation = SteppingOperation()
            let progress = operation.progress
            OperationQueue().addOperation(operation)
            #expect(await operation.executing.wait(seconds: 10))
            #expect(progress.totalUnitCount == 4)
            #expect(progress.fractionCompleted == 0)
            operation.step()
            #expect(progress.fractionCompleted == 0.25)
            operation.step()
            #expect(progress.fractionCompleted == 0.5)
            operation.finish()  // the steps left are completed with it
            try await operation.untilFinished(timeout: .seconds(10))
            #expect(progress.completedUnitCount == 4)
            #expect(progress.fractionCompleted == 1)
        }

        @Test func cancellingTheProgressCancelsTheOperationWhichFinishes() async throws {
            let operation = ProbeOperation(.never)
            let progress = operation.progress
            OperationQueue().addOperation(operation)
            #expect(await operation.executing.wait(seconds: 10))
            progress.cancel()  // its handler runs on another thread on Linux
            try await operation.untilFinished(timeout: .seconds(10))
            #expect(operation.isCancelled)
            #expect(progress.isCancelled)
            #expect(progress.fractionCompleted == 1)
        }

        @Test func cancellingTheProgressBeforeTheOperationRunsCancelsIt() async throws {
            let operation = ProbeOperation()
            operation.progress.cancel()
            await waitUntil(seconds: 10) { operation.isCancelled }
            #expect(operation.isCancelled)
            OperationQueue().addOperation(operation)
            try await operation.untilFinished(timeout: .seconds(10))
            #expect(operation.executions.current == 0)
        }

        @Test func cancellingTheOperationCancelsItsProgress() async throws {
            let operation = ProbeOperation(.never)
            let progress = operation.progress
            OperationQueue().addOperation(operation)
            #expect(await operation.executing.wait(seconds: 10))
            operation.cancel()
            try await operation.untilFinished(timeout: .seconds(10))
            #expect(progress.isCancelled)
        }

        @Test func aProgressAskedForAfterTheCancelIsCancelled() {
            let operation = ProbeOperation()
            operation.cancel()
            #expect(operation.progress.isCancelled)
        }

        @Test func S12_aFinishedOperationsProgressIsReleased() async throws {
            let operation = ProbeOperation()
            weak var weakProgress: Progress?
            do {
                let progress = operation.progress
                weakProgress = progress
                #expect(ProgressTable.contains(operation))
                #expect(operation.progress === progress)  // one progress while it runs
            }
            OperationQueue().addOperation(operation)
            try await operation.untilFinished(timeout: .seconds(10))
            #expect(!ProgressTable.contains(operation))
            await waitUntil { weakProgress == nil }
            #expect(weakProgress == nil)
            // Asked for again, it is a new one, already complete.
            #expect(operation.progress.fractionCompleted == 1)
            #expect(!ProgressTable.contains(operation))
        }

        @Test func anOperationWhoseProgressIsNeverAskedForMakesNone() async throws {
            let operation = ProbeOperation()
            operation.addObserver(BlockObserver(didFinish: { _, _ in }))
            #expect(!ProgressTable.contains(operation))
            OperationQueue().addOperation(operation)
            try await operation.untilFinished(timeout: .seconds(10))
            #expect(!ProgressTable.contains(operation))
        }

        @Test func aGroupWhoseProgressIsNeverAskedForMakesNoneForItsChildren() async throws {
            let children = [ProbeOperation(), ProbeOperation()]
            let group = GroupOperation(operations: children)
            ConditionalOperationQueue().addOperation(group)
            try await group.untilFinished(timeout: .seconds(10))
            #expect(!ProgressTable.contains(group))
            #expect(children.allSatisfy { !ProgressTable.contains($0) })
        }
    }
}
