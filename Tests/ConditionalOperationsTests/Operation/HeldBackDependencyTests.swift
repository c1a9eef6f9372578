import ConditionalOperationsTesting
import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests {
    /// Dependencies added before an operation is admitted are held back from Foundation (S12), and
    /// handed to it as the operation is admitted. Where an `isReady` query admits it, not inside the
    /// getter: Foundation posts KVO as a dependency is added, and a getter posts none (its caller,
    /// a queue, may hold its own lock while it asks).
    @Suite struct HeldBackDependencyTests {
        /// The first query answers `false` and has the dependency added from another thread; the
        /// operation is ready once it was. Made certain: the dependency's Foundation lock, which
        /// adding a dependency takes, is held meanwhile, so that a query adding it itself would
        /// wait for it.
        @Test func anIsReadyQueryLeavesTheAddingOfItsHeldBackDependenciesToAnotherThread() async throws {
            let dependency = BlockOperation {}
            dependency.start()
            let operation = ConditionalOperation()
            operation.addDependency(dependency)
            let entered = Latch()
            let release = DispatchSemaphore(value: 0)
            dependency.completionBlock = {
                [holder = DependencyReleaseTests.HoldsItsThreadWhenLetGo(entered: entered, release: release)]
                in
                withExtendedLifetime(holder) {}
            }
            // Its Foundation lock, taken: the old block is let go of under it.
            Thread.detachNewThread { dependency.completionBlock = nil }
            #expect(await entered.wait())
            let answer = Locked<Bool?>(nil)
            let returned = Latch()
            Thread.detachNewThread {
                answer.withLock { $0 = operation.isReady }
                returned.countDown()
            }
            let returnedWhileHeld = await returned.wait(seconds: 10)
            release.signal()
            #expect(returnedWhileHeld, "the query added the dependency itself, waiting for its lock")
            #expect(answer.withLock { $0 } == false)
            try await operation.waitUntil(.ready, timeout: .seconds(10))
            #expect(operation.dependencies.map(ObjectIdentifier.init) == [ObjectIdentifier(dependency)])
        }

        /// A dependency removed between the query and the adding is not added.
        @Test func aDependencyRemovedBeforeItWasAddedIsNotAdded() async throws {
            let kept = BlockOperation {}
            let removed = BlockOperation {}
            let operation = ConditionalOperation()
            operation.addDependency(kept)
            operation.addDependency(removed)
            _ = operation.isReady
            operation.removeDependency(removed)
            kept.start()
            try await operation.waitUntil(.ready, timeout: .seconds(10))
            #expect(operation.dependencies.map(ObjectIdentifier.init) == [ObjectIdentifier(kept)])
        }
    }
}
