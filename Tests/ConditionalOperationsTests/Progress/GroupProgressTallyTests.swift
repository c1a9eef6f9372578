import ConditionalOperationsMachines
import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests {
    /// The group's progress units as a value: a child whose progress is being adopted while it
    /// finishes is counted exactly once, by its progress or by the tally.
    @Suite struct GroupProgressTallyTests {
        enum Step: String, CaseIterable, Sendable {
            case adoptedThenFinished, finishedThenAdopted, notAdoptedThenFinished, finishedThenNotAdopted
        }

        /// (what happens to the child) → units the tally writes itself.
        @Test(arguments: [
            (Step.adoptedThenFinished, Int64(0)), (.finishedThenAdopted, 0),
            (.notAdoptedThenFinished, 1), (.finishedThenNotAdopted, 1),
        ])
        func aReservedChildIsCountedOnce(step: Step, writtenUnits: Int64) {
            var tally = GroupProgressTally(progress: Progress(parent: nil, userInfo: nil))
            let operation = BlockOperation()
            let child = ObjectIdentifier(operation)
            let added = tally.add(child, adopts: true)
            let addedAgain = tally.add(child, adopts: true)  // told of again when the queue takes it
            #expect(added && !addedAgain)
            let first = tally.beginWrite()
            #expect(first?.total == 1)
            let second = tally.nextWrite()
            #expect(second == nil)
            switch step {
            case .adoptedThenFinished:
                tally.resolve(child, adopted: true)
                tally.finished(child)
            case .finishedThenAdopted:
                tally.finished(child)
                tally.resolve(child, adopted: true)
            case .notAdoptedThenFinished:
                tally.resolve(child, adopted: false)
                tally.finished(child)
            case .finishedThenNotAdopted:
                tally.finished(child)
                tally.resolve(child, adopted: false)
            }
            let write = tally.beginWrite()
            #expect((write?.completed ?? 0) == writtenUnits)
            withExtendedLifetime(operation) {}
        }

        @Test func oneWriterAtATimeWritesWhatChangedMeanwhile() {
            let operations = [BlockOperation(), BlockOperation()]  // alive: distinct identifiers
            var tally = GroupProgressTally(progress: Progress(parent: nil, userInfo: nil))
            tally.add(ObjectIdentifier(operations[0]), adopts: false)
            let first = tally.beginWrite()
            #expect(first?.total == 1)
            tally.add(ObjectIdentifier(operations[1]), adopts: false)
            let meanwhile = tally.beginWrite()
            #expect(meanwhile == nil)  // the first writer writes it
            let second = tally.nextWrite()
            #expect(second?.total == 2)
            let third = tally.nextWrite()
            #expect(third == nil)
            tally.addFinished()
            let write = tally.beginWrite()
            #expect(write?.total == 3)
            #expect(write?.completed == 1)
        }
    }
}
