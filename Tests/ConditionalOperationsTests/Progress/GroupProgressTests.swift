import ConditionalOperationsTesting
import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests {
    /// A group's `progress` adds up its children's: one unit each, growing with children added.
    @Suite struct GroupProgressTests {
        /// Children that execute and then wait for the test to finish them, one by one.
        static func heldChildren(_ count: Int) -> [ProbeOperation] {
            (0..<count).map { _ in ProbeOperation(.never) }
        }

        static func executing(_ children: [ProbeOperation]) async -> Bool {
            for child in children where !(await child.executing.wait(seconds: 10)) { return false }
            return true
        }

        @Test func aGroupOfFourReportsFractionCompletedFromZeroToOneAsChildrenFinish() async throws {
            let children = Self.heldChildren(4)
            let group = GroupOperation(operations: children)
            let progress = group.progress
            #expect(progress.totalUnitCount == 4)
            ConditionalOperationQueue().addOperation(group)
            #expect(await Self.executing(children))
            #expect(progress.fractionCompleted == 0)
            for (index, child) in children.enumerated() {
                child.finish()
                try await child.untilFinished(timeout: .seconds(10))
                let expected = Double(index + 1) / 4
                await waitUntil { progress.fractionCompleted >= expected }
                #expect(progress.fractionCompleted == expected)
            }
            try await group.untilFinished(timeout: .seconds(10))
            #expect(progress.fractionCompleted == 1)
            #expect(progress.completedUnitCount == 4)
        }

        @Test func aPlainOperationChildCountsOneUnitWhenItFinishes() async throws {
            let plain = BlockOperation {}
            let held = ProbeOperation(.never)
            let group = GroupOperation(operations: [held, plain])
            let progress = group.progress
            #expect(progress.totalUnitCount == 2)
            ConditionalOperationQueue().addOperation(group)
            #expect(await held.executing.wait(seconds: 10))
            await waitUntil { progress.fractionCompleted >= 0.5 }
            #expect(progress.fractionCompleted == 0.5)  // the plain one finished
            held.finish()
            try await group.untilFinished(timeout: .seconds(10))
            #expect(progress.fractionCompleted == 1)
        }

        @Test func childrenAddedLaterGrowTheTotal() async throws {
            let first = Self.heldChildren(2)
            let group = GroupOperation(operations: first)
            let progress = group.progress
            let beforeStart = ProbeOperation(.never)
            group.addOperation(beforeStart)
            #expect(progress.totalUnitCount == 3)
            ConditionalOperationQueue().addOperation(group)
            #expect(await Self.executing(first + [beforeStart]))
            #expect(progress.totalUnitCount == 3)  // counted once, not again when it reached the queue
            first[0].finish()
            try await first[0].untilFinished(timeout: .seconds(10))
            let later = Self.heldChildren(2)
            group.addOperations(later)
            #expect(await Self.executing(later))
            #expect(progress.totalUnitCount == 5)
            await waitUntil { progress.fractionCompleted >= 0.2 }
            #expect(progress.fractionCompleted == 0.2)
            for child in [first[1], beforeStart] + later { child.finish() }
            try await group.untilFinished(timeout: .seconds(10))
            #expect(progress.fractionCompleted == 1)
        }

        @Test func aProgressAskedForWhileTheGroupRunsCountsTheChildrenFinishedAlready() async throws {
            let children = Self.heldChildren(4)
            let group = GroupOperation(operations: children)
            ConditionalOperationQueue().addOperation(group)
            #expect(await Self.executing(children))
            children[0].finish()
            try await children[0].untilFinished(timeout: .seconds(10))
            await waitUntil { group.state == .executing && children[0].isFinished }
            let progress = group.progress
            #expect(progress.totalUnitCount == 4)
            #expect(progress.fractionCompleted == 0.25)
            for child in children.dropFirst() { child.finish() }
            try await group.untilFinished(timeout: .seconds(10))
            #expect(progress.fractionCompleted == 1)
        }

        @Test func aChildReportingStepsMovesTheGroupsFraction() async throws {
            let stepping = ProgressTests.SteppingOperation()
            let other = ProbeOperation(.never)
            let group = GroupOperation(operations: [stepping, other])
            let progress = group.progress
            ConditionalOperationQueue().addOperation(group)
            #expect(await stepping.executing.wait(seconds: 10))
            #expect(await other.executing.wait(seconds: 10))
            stepping.step()
            stepping.step()
            #expect(progress.fractionCompleted == 0.25)  // half of one of two units
            stepping.finish()
            other.finish()
            try await group.untilFinished(timeout: .seconds(10))
            #expect(progress.fractionCompleted == 1)
        }

        @Test func cancellingTheGroupsProgressCancelsEveryChild() async throws {
            let children = Self.heldChildren(3)
            let group = GroupOperation(operations: children)
            let progress = group.progress
            ConditionalOperationQueue().addOperation(group)
            #expect(await Self.executing(children))
            progress.cancel()
            try await group.untilFinished(timeout: .seconds(10))
            #expect(group.isCancelled)
            #expect(children.allSatisfy { $0.isCancelled && $0.isFinished })
            #expect(progress.fractionCompleted == 1)
            #expect(!ProgressTable.contains(group))
            #expect(children.allSatisfy { !ProgressTable.contains($0) })
        }
    }
}
