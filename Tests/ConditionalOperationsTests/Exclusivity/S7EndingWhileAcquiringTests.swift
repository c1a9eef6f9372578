import ConditionalOperationsTesting
import Dispatch
import Foundation
import Testing

@testable import ConditionalOperations
@testable import ConditionalOperationsMachines

extension ConditionalOperationsTests {
    /// S7: whatever ends an operation (a cancel, `cancel(with:)`, an early `finish`, a deadline)
    /// while its last condition answers gives its category back: the next operation of the
    /// category runs, and the ended operation is let go of.
    ///
    /// Found by hostile use: the last answer asks for the categories; a cancel landing after that
    /// event but before the request reached the controller withdrew nothing, the operation finished
    /// (its finish released nothing either), and the request then made was granted to a finished
    /// operation, for good. Every later operation of the category waited forever, and the request
    /// kept the finished operation alive.
    @Suite struct S7EndingWhileAcquiringTests {
        enum Ending: String, CaseIterable, Sendable {
            case cancel, cancelWithError, finish, deadline
        }

        enum Runner: String, CaseIterable, Sendable {
            case conditionalQueue, plainQueue, byHand
        }

        /// The window held open: the thread giving the last answer is stopped between the event
        /// that asks for the categories and its request to the controller (it reads the category
        /// scope of its parent, whose lock the test holds), the operation is ended and finishes
        /// meanwhile, then the request is made.
        @Test(arguments: Runner.allCases, Ending.allCases)
        func S7_anOperationEndedBeforeItsCategoryRequestIsMadeGivesTheCategoryBack(
            runner: Runner, ending: Ending
        ) async throws {
            let category = "S7.endedBeforeRequest.\(runner).\(ending)"
            let queue = Self.queue(runner)
            let ended = try await Self.endBeforeTheRequest(category: category, queue: queue, ending: ending)
            guard await Self.expectTheCategoryFree(category, queue: queue, ended: ended, round: 0) else {
                return
            }
            #expect(ExclusivityController.shared.requestCount(for: category) == 0)
        }

        /// Rounds per combination of the race itself, unarranged.
        static let rounds = 200

        @Test(arguments: Runner.allCases, Ending.allCases)
        func S7_anOperationEndedWhileItsLastConditionAnswersGivesItsCategoryBack(
            runner: Runner, ending: Ending
        ) async throws {
            let category = "S7.endingWhileAcquiring.\(runner).\(ending)"
            let queue = Self.queue(runner)
            for round in 0..<Self.rounds {
                let ended = try await Self.endWhileAnswering(
                    category: category, queue: queue, ending: ending, jitter: round % 64)
                guard await Self.expectTheCategoryFree(category, queue: queue, ended: ended, round: round)
                else {
                    return
                }
            }
            #expect(ExclusivityController.shared.requestCount(for: category) == 0)
        }

        static func queue(_ runner: Runner) -> OperationQueue? {
            switch runner {
            case .conditionalQueue: ConditionalOperationQueue()
            case .plainQueue: OperationQueue()
            case .byHand: nil
            }
        }

        /// A fresh operation of `category` runs, and the ended operation was let go of.
        static func expectTheCategoryFree(
            _ category: String, queue: OperationQueue?, ended: WeakBox<ConditionalOperation>, round: Int
        ) async -> Bool {
            let fresh = ConditionalOperation()
            fresh.addCondition(MutuallyExclusive(category: category))
            (queue ?? OperationQueue()).addOperation(fresh)
            do {
                try await fresh.untilFinished(timeout: .seconds(5))
            } catch {
                Issue.record("round \(round): \(error)")
                return false
            }
            await waitUntil { ended.object == nil }
            #expect(ended.object == nil, "round \(round): the ended operation was let go of")
            return ended.object == nil
        }

        /// An operation of `category` with one condition, run until the condition was asked.
        static func operationAsked(category: String, queue: OperationQueue?) async throws -> (
            ConditionalOperation, ManualCondition
        ) {
            let operation = ConditionalOperation()
            let condition = ManualCondition(name: "answered in the race")
            operation.addCondition(MutuallyExclusive(category: category))
            operation.addCondition(condition)
            if let queue {
                queue.addOperation(operation)
            } else {
                operation.start()
            }
            try await condition.waitUntilEvaluated(timeout: .seconds(5))
            return (operation, condition)
        }

        static func end(_ operation: ConditionalOperation, _ ending: Ending) {
            switch ending {
            case .cancel: operation.cancel()
            case .cancelWithError: operation.cancel(with: TestError(1))
            case .finish: operation.finish(error: TestError(2))
            case .deadline: operation.addDeadline(after: .seconds(0))
            }
        }

        static func endBeforeTheRequest(category: String, queue: OperationQueue?, ending: Ending)
            async throws -> WeakBox<ConditionalOperation>
        {
            let (operation, condition) = try await operationAsked(category: category, queue: queue)
            // A parent whose lock is not the operation's: the answering thread stops on it alone.
            var parent = ConditionalOperation()
            while LockTable.mutex(for: ObjectIdentifier(parent))
                == LockTable.mutex(for: ObjectIdentifier(operation))
            {
                parent = ConditionalOperation()
            }
            operation.adoptParent(parent)
            let held = HeldLock(of: parent)
            #expect(await held.isHeld.wait())
            let answered = Latch()
            Thread {
                condition.answer(.satisfied)
                answered.countDown()
            }.start()
            await waitUntil(seconds: 5) { operation.isRequestingCategories }
            #expect(operation.isRequestingCategories, "the last answer asked for the categories")
            end(operation, ending)
            try await operation.untilFinished(timeout: .seconds(5))
            held.release()
            #expect(await answered.wait())
            withExtendedLifetime(parent) {}
            let ended = WeakBox<ConditionalOperation>()
            ended.set(operation)
            return ended
        }

        /// Holds `operation`'s lock on a thread of its own until ``release()``.
        final class HeldLock: Sendable {
            let isHeld = Latch()
            private let released = DispatchSemaphore(value: 0)

            init(of operation: ConditionalOperation) {
                Thread { [isHeld, released] in
                    operation.withOwnLock {
                        isHeld.countDown()
                        released.wait()
                    }
                }.start()
            }

            func release() { released.signal() }
        }

        /// Runs one operation of `category` until its one condition is asked, then answers the
        /// condition on one thread while `ending` lands on another, `jitter` steps later.
        static func endWhileAnswering(
            category: String, queue: OperationQueue?, ending: Ending, jitter: Int
        ) async throws -> WeakBox<ConditionalOperation> {
            let (operation, condition) = try await operationAsked(category: category, queue: queue)
            await together(
                { condition.answer(.satisfied) }, after: 0, { end(operation, ending) }, after: jitter)
            try await operation.untilFinished(timeout: .seconds(5))
            let ended = WeakBox<ConditionalOperation>()
            ended.set(operation)
            return ended
        }
    }
}

extension ConditionalOperation {
    /// The last answer asked for the categories, and no grant made it ready yet.
    fileprivate var isRequestingCategories: Bool {
        machine.withLock {
            if case .acquiring = $0.phase { true } else { false }
        }
    }
}
