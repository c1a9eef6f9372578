import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests {
    /// Operations share the mutexes of ``LockTable``: nothing may run an operation's deinit (which
    /// takes its lock) while another operation's lock is held.
    @Suite struct LockTableTests {
        /// A condition that keeps an operation alive until the condition is let go of.
        struct HoldingCondition: OperationCondition {
            let held: Foundation.Operation

            func evaluate(
                for operation: ConditionalOperation,
                completion: @escaping @Sendable (OperationConditionResult) -> Void
            ) {
                completion(.satisfied)
            }
        }

        /// An operation whose deinit takes its lock: one with a dependency (see its deinit).
        static func operationWithADependency() -> ProbeOperation {
            let dependency = BlockOperation {}
            dependency.start()
            let operation = ProbeOperation()
            operation.addDependency(dependency)
            return operation
        }

        /// Two operations sharing a mutex; the second's deinit takes it.
        static func operationsSharingOneMutex() -> (ProbeOperation, ProbeOperation) {
            let first = ProbeOperation()
            var candidates: [ProbeOperation] = []  // kept alive, so each try has a new address
            while true {
                let candidate = operationWithADependency()
                if LockTable.mutex(for: ObjectIdentifier(candidate))
                    == LockTable.mutex(for: ObjectIdentifier(first))
                {
                    return (first, candidate)
                }
                candidates.append(candidate)
            }
        }

        @Test func S12_aCancelThatAbandonsAConditionReleasesWhatItHoldsOutsideTheLock() async {
            let (holder, held) = Self.operationsSharingOneMutex()
            let weakHeld = WeakBox<ProbeOperation>()
            weakHeld.set(held)
            holder.addCondition(HoldingCondition(held: held))
            _ = consume held
            let cancelled = Latch()
            Thread.detachNewThread {
                holder.cancel()  // abandons the condition, the last reference to `held`
                cancelled.countDown()
            }
            guard await cancelled.wait(seconds: 10) else {
                Issue.record("cancel() deadlocked: it released the condition under the shared lock")
                return  // the operation's lock stays held: touching it again would hang the suite
            }
            let done = completionLatch([holder])
            OperationQueue().addOperation(holder)
            #expect(await done.wait(seconds: 10))
            await waitUntil(seconds: 5) { weakHeld.object == nil }
            #expect(
                weakHeld.object == nil,
                "the abandoned condition was let go of once the operation finished (S12)")
        }
    }
}
