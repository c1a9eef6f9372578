import Foundation
import Testing

@testable import ConditionalOperations
@testable import ConditionalOperationsMachines

extension ConditionalOperationsTests.CompositionTests {
    /// A group's children as a value, without threads: each table reads as the specification of
    /// one event in every state (S11).
    @Suite struct GroupStateMachineTests {
        typealias Machine = GroupMachine

        /// The states an event is tried in, each reached by the events that lead there.
        enum Given: String, CaseIterable, CustomStringConvertible {
            case waiting, waitingCancelled, executing, executingCancelled, draining, finished

            var description: String { rawValue }
        }

        /// A machine in state `given`, with one child (`first`) waiting or counted.
        static func machine(_ given: Given, first: Foundation.Operation) -> Machine {
            var machine = Machine(queue: ConditionalOperationQueue(), children: [first])
            switch given {
            case .waiting:
                break
            case .waitingCancelled:
                _ = machine.cancel()
            case .executing, .executingCancelled, .draining:
                _ = machine.start(given == .draining ? .finishDraining : .finish)
                _ = machine.childWillBeAdded(first)
                _ = machine.started()
                _ = machine.childFinished(nil, errors: [])  // the start itself
                if given == .executingCancelled {
                    _ = machine.cancel()
                    _ = machine.childrenCancelled()
                }
            case .finished:
                _ = machine.start(.finish)
                _ = machine.started()
                _ = machine.childFinished(nil, errors: [])
            }
            return machine
        }

        @Test(arguments: [
            (Given.waiting, "cancel 1", "waiting(1, cancelled)"),
            (.waitingCancelled, "none", "waiting(1, cancelled)"),
            (.executing, "cancel 1, suspending the queue", "running(1, cancelled, finish)"),
            (.executingCancelled, "none", "running(1, cancelled, finish)"),
            (.draining, "none", "running(1, cancelled, finishDraining)"),
            (.finished, "none", "finished"),
        ])
        func S11_cancel(given: Given, action: String, next: String) {
            var machine = Self.machine(given, first: BlockOperation {})
            let described =
                switch machine.cancel() {
                case .none: "none"
                case .cancel(let children, let queue):
                    "cancel \(children.count)\(queue == nil ? "" : ", suspending the queue")"
                }
            #expect(described == action)
            #expect(machine.stateDescription == next)
        }

        @Test(arguments: [
            (Given.waiting, "adopt", "waiting(2)"),
            (.waitingCancelled, "adopt, cancelled", "waiting(2, cancelled)"),
            (.executing, "run", "running(2, finish)"),
            (.executingCancelled, "run, cancelled", "running(2, cancelled, finish)"),
            (.draining, "run, cancelled", "running(2, cancelled, finishDraining)"),
            (.finished, "run late", "finished"),
        ])
        func S11_add(given: Given, action: String, next: String) {
            var machine = Self.machine(given, first: BlockOperation {})
            let described =
                switch machine.add(BlockOperation {}) {
                case .adopt(let cancel): "adopt\(cancel ? ", cancelled" : "")"
                case .run(_, let cancel): "run\(cancel ? ", cancelled" : "")"
                case .runLate: "run late"
                }
            #expect(described == action)
            #expect(machine.stateDescription == next, "counted from addOperation on (S33)")
        }

        /// S33: a child counted by `add` is not counted again when its queue adds it, and the
        /// group's last other child finishing in between does not end the group.
        @Test func S33_aChildAddedToARunningGroupIsCountedOnceFromAddOn() {
            let first = BlockOperation {}
            var machine = Self.machine(.executing, first: first)
            let late = BlockOperation {}
            _ = machine.add(late)
            guard case .none = machine.childFinished(first, errors: []) else {
                Issue.record("the group ended before the child added to it")
                return
            }
            let cancels = machine.childWillBeAdded(late)
            #expect(!cancels)
            #expect(machine.stateDescription == "running(1, finish)")
            guard case .end = machine.childFinished(late, errors: []) else {
                Issue.record("the late child's end did not end the group")
                return
            }
        }

        @Test(arguments: [
            (Given.waiting, true, "waiting(1)"),
            (.executing, false, "running(2, finish)"),
            (.executingCancelled, true, "running(2, cancelled, finish)"),
            (.draining, true, "running(2, cancelled, finishDraining)"),
            (.finished, true, "finished"),
        ])
        func S11_childWillBeAdded(given: Given, cancels: Bool, next: String) {
            var machine = Self.machine(given, first: BlockOperation {})
            let cancelsIt = machine.childWillBeAdded(BlockOperation {})
            #expect(cancelsIt == cancels)
            #expect(machine.stateDescription == next)
        }

        @Test(arguments: [
            (Given.waiting, "none", "waiting(1)"),
            (.executing, "end finish [1]", "finished"),
            (.draining, "end finishDraining [1]", "finished"),
            (.finished, "none", "finished"),
        ])
        func S11_childFinished(given: Given, action: String, next: String) {
            let first = BlockOperation {}
            var machine = Self.machine(given, first: first)
            let described =
                switch machine.childFinished(first, errors: [TestError(1)]) {
                case .none: "none"
                case .end(let ending, let errors, _, _): "end \(ending) \(testErrorIDs(errors))"
                }
            #expect(described == action)
            #expect(machine.stateDescription == next)
        }

        @Test func S11_theGroupEndsOnlyWithItsLastChildAndWithEveryChildsErrors() {
            let (first, second) = (BlockOperation {}, BlockOperation {})
            var machine = Machine(queue: ConditionalOperationQueue(), children: [first, second])
            guard case .start(_, let children) = machine.start(.finish) else { return }
            #expect(children == [first, second])
            for child in children {
                let cancels = machine.childWillBeAdded(child)
                #expect(!cancels)
            }
            guard case .none = machine.childFinished(nil, errors: []) else {
                Issue.record("the group ended before its children")
                return
            }
            guard case .none = machine.childFinished(second, errors: [TestError(2)]) else {
                Issue.record("the group ended before its first child")
                return
            }
            guard case .end(.finish, let errors, _, _) = machine.childFinished(first, errors: [TestError(1)])
            else {
                Issue.record("the last child did not end the group")
                return
            }
            #expect(testErrorIDs(errors) == [1, 2])
        }

        @Test func S11_aGroupThatDoesNotExecuteCancelsTheChildrenItStarts() {
            var machine = Machine(queue: ConditionalOperationQueue(), children: [BlockOperation {}])
            _ = machine.start(.finishDraining)
            let cancels = machine.childWillBeAdded(BlockOperation {})
            #expect(cancels, "every child of a draining group is cancelled")
        }
    }
}
