import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests {
    /// The registry of a queue's unfinished operations, as a value, without threads: every
    /// operation counted from its admission to its finish, whether it takes part in the
    /// dependency graph (S9) or not.
    @Suite struct QueueRegistryTests {
        @Test func operationsWithoutDependenciesAreCountedUntilEachFinishedInAnyOrder() {
            var registry = QueueRegistry()
            let operations = (0..<5).map { _ in ProbeOperation() }
            for operation in operations {
                let (isKnown, cycle) = registry.add(operation, dependencies: [])
                #expect(!isKnown && cycle.isEmpty)
            }
            #expect(registry.count == 5)
            // The first, the last, then one from the middle: each leaves the others counted.
            for (finished, index) in [0, 4, 2].enumerated() {
                let removed = registry.remove(operations[index])
                let removedAgain = registry.remove(operations[index])
                #expect(removed && registry.count == 4 - finished)
                #expect(!removedAgain, "forgotten once it finished")
            }
            let left = Set(registry.operations.map(ObjectIdentifier.init))
            #expect(left == [ObjectIdentifier(operations[1]), ObjectIdentifier(operations[3])])
            let removedLast = [registry.remove(operations[3]), registry.remove(operations[1])]
            #expect(removedLast == [true, true])
            #expect(registry.count == 0 && registry.operations.isEmpty)
        }

        @Test func plainOperationsAndOperationsWithDependenciesAreCountedBesideTheOthers() {
            var registry = QueueRegistry()
            let loose = ProbeOperation()
            let plain = BlockOperation()
            let dependent = ProbeOperation()
            dependent.addDependency(loose)
            _ = registry.add(loose, dependencies: [])
            _ = registry.add(plain, dependencies: [])
            _ = registry.add(dependent, dependencies: [loose])
            #expect(registry.count == 3)
            let addedTwice = registry.add(plain, dependencies: []).isKnown
            #expect(addedTwice, "S13: a plain operation added twice")
            let removed = [registry.remove(loose), registry.remove(plain), registry.remove(dependent)]
            #expect(removed == [true, true, true])
            #expect(registry.count == 0)
        }

        /// S9: an operation that waited for one that finished does not wait for an operation
        /// added later where that one was (an object allocated at the same address, here the
        /// same object added again).
        @Test func S9_anOperationAddedWhereAFinishedDependencyWasInheritsNoDependent() {
            var registry = QueueRegistry()
            let dependency = ProbeOperation()
            let dependent = ProbeOperation()
            _ = registry.add(dependency, dependencies: [])
            _ = registry.add(dependent, dependencies: [dependency])
            let removed = registry.remove(dependency)
            #expect(removed)
            // Depending on `dependent`, it would close a cycle if `dependent` still waited for it.
            let (_, cycle) = registry.add(dependency, dependencies: [dependent])
            #expect(cycle.isEmpty)
        }

        @Test func S9_aCycleThroughAnOperationAddedWithoutDependenciesIsFound() {
            var registry = QueueRegistry()
            let first = ProbeOperation()
            let second = ProbeOperation()
            // `second` waits for `first`, not yet added: `first` then closes the cycle.
            _ = registry.add(second, dependencies: [first])
            let (_, cycle) = registry.add(first, dependencies: [second])
            #expect(
                Set(cycle.map(ObjectIdentifier.init)) == [ObjectIdentifier(first), ObjectIdentifier(second)])
        }
    }
}
