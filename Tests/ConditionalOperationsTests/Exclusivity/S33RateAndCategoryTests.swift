import ConditionalOperationsTesting
import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests {
    /// S33: a waiter holds no place in a rate limit's line while it waits for a category, so a
    /// rate limit, a category and a group never deadlock.
    @Suite struct S33RateAndCategoryTests {
        /// A group holds a category; an outsider needing that category and a rate limit asks for its
        /// permit first; then the group's child asks for the same rate limit. Before, the outsider
        /// kept its place in the permit line while it waited for the group's category, the child
        /// waited behind it ("a permit is free, 1 ahead"), and the group waited for the child.
        @Test func S33_anOutsiderWaitingForAGroupsCategoryHoldsNoPermitPlaceFromItsChild() async {
            let unique = UUID().uuidString
            let category = "db-\(unique)"
            let rate = RateLimit("api-\(unique)", permits: 1, per: .milliseconds(200))
            let gate = Latch()
            let gateOperation = ClosureOperation<Void> { operation in
                Task {
                    _ = await gate.wait(seconds: 20)
                    operation.finish()
                }
            }
            let child = ClosureOperation<Void>(name: "child") { $0.finish() }
            child.addCondition(rate)
            child.addDependency(gateOperation)
            let group = GroupOperation(operations: [gateOperation, child])
            group.name = "group"
            group.addCondition(MutuallyExclusive(category: category))
            let queue = ConditionalOperationQueue()
            queue.addOperation(group)
            await waitUntil(seconds: 10) { group.state == .executing }
            let outsider = ClosureOperation<Void>(name: "outsider") { $0.finish() }
            outsider.addCondition(MutuallyExclusive(category: category) && rate)
            queue.addOperation(outsider)
            await waitUntil(seconds: 10) {
                ExclusivityController.shared.rateLineCount(named: "api-\(unique)") == 1
            }
            #expect(
                ExclusivityController.shared.rateLineCount(named: "api-\(unique)") == 1,
                "the outsider waits in line"
            )
            gate.countDown()
            let outcome = await within {
                for operation in [child, group, outsider] as [ConditionalOperation] {
                    await operation.untilFinished()
                }
            }
            #expect(outcome != nil, "\(child.diagnosis); \(outsider.diagnosis)")
            guard outcome != nil else {
                queue.cancelAllOperations()
                return
            }
            #expect([child, group, outsider].allSatisfy { $0.errors.isEmpty })
        }
    }
}
