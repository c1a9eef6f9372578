import ConditionalOperationsTesting
import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests.CompositionTests {
    /// S33: no combination of legal uses deadlocks or strands an operation. Each test is a
    /// finding of a program that composed the features, and failed before its fix.
    @Suite(.serialized) struct S33FeaturesComposeTests {
        /// Times `ADVERSARY_MULTIPLIER` (100 in the long mode); at most ten times under
        /// ThreadSanitizer, whose allocator stopped the process with a failed internal check after
        /// about 20 minutes of the long mode's 30,000 rounds (no race reported; AddressSanitizer
        /// ran all of them clean).
        static let rounds =
            300
            * (MisuseTable.isThreadSanitized
                ? min(AdversaryConfiguration.multiplier, 10) : AdversaryConfiguration.multiplier)

        /// A child added as the group's last child finishes, the group suspended meanwhile: it is
        /// counted from `addOperation` on, so the group waits for it, and it runs once the group
        /// is resumed. Before, the group could finish between `addOperation` and its queue's
        /// `willAdd`; the child was then cancelled on the group's released queue, still suspended,
        /// and waited there forever ("ready, but its queue is suspended").
        @Test func S33_aChildAddedWhileItsGroupFinishesIsRunNeverStranded() async {
            let queue = ConditionalOperationQueue()
            for round in 0..<Self.rounds {
                let last = HeldOperation()
                let group = GroupOperation(operations: [last])
                queue.addOperation(group)
                #expect(await last.executing.wait(seconds: 10))
                group.isSuspended = true
                let late = ClosureOperation<Void> { $0.finish() }
                let both = Latch(count: 2)
                DispatchQueue.global().async {
                    last.finish()
                    both.countDown()
                }
                DispatchQueue.global().async {
                    group.addOperation(late)
                    both.countDown()
                }
                #expect(await both.wait(seconds: 10))
                group.isSuspended = false
                let outcome = await within(seconds: 5) {
                    await late.untilFinished()
                    await group.untilFinished()
                }
                #expect(outcome != nil, "round \(round): \(late.diagnosis)")
                guard outcome != nil else { return }
                #expect(group.errors.isEmpty, "round \(round): the late child ran as any child")
                guard group.errors.isEmpty else { return }
            }
        }
    }
}
