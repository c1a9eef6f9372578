import ConditionalOperations
import Foundation
import Testing

extension ConditionalOperationsTests {
    /// S9: a failed or cancelled dependency stops a dependent only through NoFailedDependencies.
    @Suite struct S9DependencyTests {
        @Test func S9_aFailedDependencyDoesNotStopADependentByDefault() async {
            let failing = ProbeOperation(.finishWith([TestError(1)]))
            let dependent = ProbeOperation()
            dependent.addDependency(failing)
            let done = completionLatch([dependent])
            OperationQueue().add([failing, dependent])
            #expect(await done.wait())
            #expect(dependent.executions.current == 1)
        }

        @Test func S9_noFailedDependenciesStopsADependentOfAFailure() async {
            let failing = ProbeOperation(.finishWith([TestError(1)]))
            let fine = ProbeOperation()
            let dependent = ProbeOperation()
            dependent.addCondition(NoFailedDependencies())
            dependent.addDependency(failing)
            dependent.addDependency(fine)
            let done = completionLatch([dependent])
            OperationQueue().add([failing, fine, dependent])
            #expect(await done.wait())
            #expect(dependent.executions.current == 0)
            #expect(dependent.errors.first as? OperationError == .dependenciesFailed(count: 1))
            #expect(!dependent.isCancelled)
        }

        @Test func S9_noFailedDependenciesStopsADependentOfACancellation() async {
            let cancelled = ProbeOperation()
            cancelled.cancel()
            let plainCancelled = BlockOperation {}
            plainCancelled.cancel()
            let dependent = ProbeOperation()
            dependent.addCondition(NoFailedDependencies())
            dependent.addDependency(cancelled)
            dependent.addDependency(plainCancelled)
            let done = completionLatch([dependent])
            OperationQueue().add([cancelled, plainCancelled, dependent])
            #expect(await done.wait())
            #expect(dependent.executions.current == 0)
            #expect(dependent.errors.first as? OperationError == .dependenciesCancelled(count: 2))
        }

        @Test func S9_cancellationsCanBeIgnored() async {
            let cancelled = ProbeOperation()
            cancelled.cancel(with: TestError(2))
            let dependent = ProbeOperation()
            dependent.addCondition(NoFailedDependencies(ignoringCancellations: true))
            dependent.addDependency(cancelled)
            let done = completionLatch([dependent])
            OperationQueue().add([cancelled, dependent])
            #expect(await done.wait())
            #expect(dependent.executions.current == 1)
        }
    }
}
