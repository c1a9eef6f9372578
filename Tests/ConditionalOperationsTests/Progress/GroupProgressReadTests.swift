import ConditionalOperationsTesting
import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests {
    /// A group's `progress` may be read at any moment: before it has a child, while its queue
    /// starts it, after it finished (S31: then it counts every child).
    @Suite struct GroupProgressReadTests {
        @Test func theProgressOfAGroupWithoutChildrenCountsOneUnitLikeAnyOperation() async throws {
            let group = GroupOperation()
            let progress = group.progress
            #expect(progress.totalUnitCount == 1)
            #expect(progress.fractionCompleted == 0)
            ConditionalOperationQueue().addOperation(group)
            try await group.untilFinished(timeout: .seconds(10))
            #expect(progress.completedUnitCount == 1)
            #expect(progress.fractionCompleted == 1)
        }

        @Test func aChildAddedToAGroupWhoseProgressWasReadWithoutChildrenIsItsOneUnit() async throws {
            let group = GroupOperation()
            let progress = group.progress
            let child = ProbeOperation(.never)
            group.addOperation(child)
            #expect(progress.totalUnitCount == 1)
            group.addOperation(BlockOperation {})
            #expect(progress.totalUnitCount == 2)
            ConditionalOperationQueue().addOperation(group)
            #expect(await child.executing.wait(seconds: 10))
            child.finish()
            try await group.untilFinished(timeout: .seconds(10))
            #expect(progress.completedUnitCount == 2)
            #expect(progress.fractionCompleted == 1)
        }

        @Test func readingTheProgressWhileTheQueueStartsTheGroupCountsEveryChild() async throws {
            for round in 0..<100 {
                let children: [Foundation.Operation] = [
                    ProbeOperation(), BlockOperation {}, ProbeOperation(),
                ]
                let group = GroupOperation(operations: children)
                let read = Latch()
                let first = Locked<Progress?>(nil)
                let go = DispatchSemaphore(value: 0)
                DispatchQueue.global().async {
                    go.wait()
                    // Read as often as it can while the group starts, runs and finishes.
                    while !group.isFinished {
                        let progress = group.progress
                        first.withLock { $0 = $0 ?? progress }
                    }
                    read.countDown()
                }
                go.signal()
                (round.isMultiple(of: 2) ? ConditionalOperationQueue() : OperationQueue()).addOperation(group)
                try await group.untilFinished(timeout: .seconds(10))
                #expect(await read.wait(seconds: 10))
                guard let progress = first.withLock({ $0 }) else { continue }  // read only once it finished
                #expect(progress.totalUnitCount == 3)
                #expect(progress.completedUnitCount == 3)
                #expect(progress.fractionCompleted == 1)
            }
        }

        @Test func S31_aGroupEndingWhileAnotherThreadWritesItsProgressCountsEveryChild() async throws {
            let group = GroupOperation(operations: [BlockOperation {}, BlockOperation {}, BlockOperation {}])
            // The test becomes the one writer of the group's progress and never writes, as a thread
            // that made the progress is while the group starts, runs and finishes: the children's
            // counts then wait for it, and the group's end must write them itself.
            let progress = Progress.discreteProgress(totalUnitCount: 1)
            let pending = group.withOwnLock { group.lockedGroup.makeProgress(progress) }.write
            #expect(pending?.total == 3)
            ConditionalOperationQueue().addOperation(group)
            try await group.untilFinished(timeout: .seconds(10))
            #expect(progress.totalUnitCount == 3)
            #expect(progress.completedUnitCount == 3)
            // The writer's older counts, written late, undo nothing.
            if let pending { group.writeProgress(pending) }
            #expect(progress.totalUnitCount == 3)
            #expect(progress.completedUnitCount == 3)
        }

        @Test func S31_theProgressOfAFinishedGroupReadForTheFirstTimeCountsEveryChild() async throws {
            let children = (0..<8).map { _ in ProbeOperation() }
            let group = GroupOperation(operations: children)
            ConditionalOperationQueue().addOperation(group)
            try await group.untilFinished(timeout: .seconds(10))
            let progress = group.progress
            #expect(progress.totalUnitCount == 8)
            #expect(progress.completedUnitCount == 8)
            #expect(progress.fractionCompleted == 1)
        }

        @Test func S31_aFinishedGroupWithoutChildrenCountsOneUnitDone() async throws {
            let group = GroupOperation()
            ConditionalOperationQueue().addOperation(group)
            try await group.untilFinished(timeout: .seconds(10))
            #expect(group.progress.totalUnitCount == 1)
            #expect(group.progress.completedUnitCount == 1)
        }
    }
}
