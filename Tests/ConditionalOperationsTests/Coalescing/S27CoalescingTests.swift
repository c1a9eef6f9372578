import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests.CoalescingTests {
    /// S27: an operation with a coalescing key, added to a `ConditionalOperationQueue` while an
    /// unfinished operation of its class with that key is there, joins it instead of executing,
    /// and finishes right after it, as it did.
    @Suite struct S27CoalescingTests {
        /// `count` operations with `key`, the first executing (held until released), the others joined.
        static func joined(_ count: Int, key: String = "user:42", on queue: ConditionalOperationQueue) async
            -> [CountedFetch]
        {
            let executions = Counter()
            let operations = (0..<count).map { _ in CountedFetch(key: key, executions: executions) }
            queue.addOperation(operations[0])
            _ = await operations[0].executing.wait()
            for joiner in operations.dropFirst() { queue.addOperation(joiner) }
            return operations
        }

        @Test func S27_concurrentRunsOfOneKeyShareOneExecutionAndItsValue() async throws {
            let queue = ConditionalOperationQueue()
            let operations = await Self.joined(5, on: queue)
            let started = Counter()
            let finished = Counter()
            for joiner in operations.dropFirst() {
                joiner.addObserver(
                    BlockObserver(
                        didStart: { _ in started.increment() }, didFinish: { _, _ in finished.increment() }))
                #expect(joiner.coalescedInto === operations[0])
                #expect(joiner.state == .pending)
            }
            #expect(operations[0].coalescedInto == nil)
            let values = Task {
                try await withThrowingTaskGroup(of: Int.self) { group in
                    for operation in operations.dropFirst() { group.addTask { try await operation.value } }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
            }
            operations[0].release(with: .success(7))
            let outcome = await within { try await values.value }
            #expect(try outcome?.get() == [7, 7, 7, 7])
            #expect(operations[0].executions.current == 1)
            #expect(started.current == 0, "a joiner does not execute: no didStart")
            #expect(finished.current == 4)
            #expect(operations.allSatisfy { $0.errors.isEmpty && !$0.isCancelled })
        }

        @Test func S27_queueRunReturnsTheOneFetchsValueToEveryCaller() async throws {
            let queue = ConditionalOperationQueue()
            let executions = Counter()
            let first = CountedFetch(key: "user:1", executions: executions)
            let outcome = await within {
                try await withThrowingTaskGroup(of: Int.self) { group in
                    group.addTask { try await queue.run(first) }
                    _ = await first.executing.wait()
                    for _ in 0..<3 {
                        group.addTask {
                            try await queue.run(CountedFetch(key: "user:1", executions: executions))
                        }
                    }
                    await waitUntil { queue.unfinishedOperationCount == 4 }
                    first.release(with: .success(9))
                    return try await group.reduce(into: []) { $0.append($1) }
                }
            }
            #expect(try outcome?.get() == [9, 9, 9, 9])
            #expect(executions.current == 1)
        }

        @Test func S27_aJoinerFinishesWithTheErrorsOfAFailedJoinedOperation() async {
            let operations = await Self.joined(3, on: ConditionalOperationQueue())
            operations[0].release(with: .failure(TestError(3)))
            for joiner in operations.dropFirst() {
                let outcome = await within { try await joiner.value }
                #expect(outcome?.failure as? TestError == TestError(3))
                #expect(testErrorIDs(joiner.errors) == [3] && joiner.failed && !joiner.isCancelled)
                #expect(joiner.diagnosis.reason.finishedErrorCount == 1)
            }
        }

        @Test func S27_aCancelledJoinedOperationCancelsItsJoinersWithItsErrors() async {
            let operations = await Self.joined(3, on: ConditionalOperationQueue())
            let cancels = Counter()
            operations[2].addObserver(BlockObserver(didCancel: { _, _ in cancels.increment() }))
            operations[0].cancel(with: TestError(8))
            for joiner in operations.dropFirst() {
                let outcome = await within { try await joiner.value }
                #expect(outcome?.failure as? TestError == TestError(8))
                #expect(joiner.isCancelled && testErrorIDs(joiner.errors) == [8])
            }
            #expect(cancels.current == 1)
        }

        @Test func S27_cancellingAJoinerCancelsItAloneAndAtOnce() async throws {
            let operations = await Self.joined(3, on: ConditionalOperationQueue())
            operations[1].cancel()
            let cancelled = await within { try await operations[1].value }
            #expect(cancelled?.failure is CancellationError, "it finished before the joined one")
            #expect(!operations[0].isCancelled && operations[0].state == .executing)
            operations[0].release(with: .success(5))
            #expect(try await within { try await operations[2].value }?.get() == 5)
            #expect(operations[1].isCancelled && operations[1].errors.isEmpty)
        }

        @Test func S27_aCancelAfterTheJoinedOperationFinishedChangesNothing() async throws {
            let operations = await Self.joined(2, on: ConditionalOperationQueue())
            operations[0].release(with: .success(6))
            #expect(try await within { try await operations[1].value }?.get() == 6)
            operations[1].cancel()
            #expect(!operations[1].isCancelled && operations[1].result?.success == 6)
        }

        @Test func S27_anOperationCancelledBeforeItWasAddedNeitherJoinsNorIsJoined() async throws {
            let queue = ConditionalOperationQueue()
            let executions = Counter()
            let cancelled = CountedFetch(key: "k", executions: executions)
            cancelled.cancel()
            queue.addOperation(cancelled)
            #expect(await within { try await cancelled.value }?.failure is CancellationError)
            let next = CountedFetch(key: "k", executions: executions, finishesAtOnce: true)
            #expect(try await within { try await queue.run(next) }?.get() == 42)
            #expect(next.coalescedInto == nil && executions.current == 1)
        }

        /// A joiner cancelled while the joined operation finishes, from another thread: it finishes
        /// either way, cancelled or with the value, never waiting for an end that came.
        @Test func S27_aJoinerCancelledWhileTheJoinedOneFinishesAlwaysFinishes() async {
            for round in 0..<200 {
                let operations = await Self.joined(2, key: "race", on: ConditionalOperationQueue())
                let go = DispatchGroup()
                go.enter()
                DispatchQueue.global().async {
                    go.wait()
                    operations[1].cancel()
                }
                go.leave()
                operations[0].release(with: .success(round))
                let outcome = await within(seconds: 10) { try? await operations[1].value }
                #expect(outcome != nil, "round \(round): the joiner never finished")
                let joiner = operations[1]
                #expect(joiner.isCancelled || joiner.result?.success == round)
            }
        }

        /// Joiners added from several threads while the key's operation finishes on its own: each
        /// either joined and took its value, or found the key free and executed; none waits forever.
        @Test func S27_joinersArrivingWhileTheJoinedOneFinishesNeverWaitForever() async {
            let queue = ConditionalOperationQueue()
            let executions = Counter()
            let operations = (0..<2000).map { _ in
                CountedFetch(key: "busy", executions: executions, finishesAtOnce: true)
            }
            DispatchQueue.concurrentPerform(iterations: 4) { part in
                for index in stride(from: part, to: operations.count, by: 4) {
                    queue.addOperation(operations[index])
                }
            }
            let idle = await within(seconds: 20) { await queue.waitUntilIdle() }
            #expect(idle != nil)
            let joiners = operations.filter { $0.coalescedInto != nil }.count
            #expect(executions.current + joiners == operations.count)
            #expect(operations.allSatisfy { $0.result?.success == 42 })
        }

        @Test func S27_theKeyIsFreeOnceItsOperationFinished() async throws {
            let queue = ConditionalOperationQueue()
            let executions = Counter()
            for _ in 0..<3 {
                let fetch = CountedFetch(key: "again", executions: executions, finishesAtOnce: true)
                #expect(try await within { try await queue.run(fetch) }?.get() == 42)
                #expect(fetch.coalescedInto == nil)
            }
            #expect(executions.current == 3)
        }

        /// An operation that finishes within the `start()` its queue's drainer gave it is
        /// forgotten with the drainer's next trip, after its waiters were resumed: one of them
        /// that adds an operation with the same key, there and then, finds the key free.
        @Test func S27_theKeyIsFreeForWhoeverSawItsOperationFinishBeforeTheQueueForgotIt() async throws {
            let queue = ConditionalOperationQueue()
            let executions = Counter()
            let first = CountedFetch(key: "again", executions: executions, finishesAtOnce: true)
            let second = CountedFetch(key: "again", executions: executions, finishesAtOnce: true)
            first.whenFinished { queue.addOperation(second) }
            queue.addOperation(first)
            #expect(try await within { try await second.value }?.get() == 42)
            #expect(second.coalescedInto == nil, "it executes: the one before it finished")
            #expect(executions.current == 2)
        }

        /// Forgetting the finished holder a key was taken over from leaves the key with the
        /// operation that took it: one added after joins that one.
        @Test func S27_aKeyTakenOverFromAFinishedHolderStaysWithTheOperationThatTookIt() async throws {
            final class FinishesHeard: ConditionalOperationQueueDelegate {
                let first = Latch()
                func operationQueue(
                    _ queue: ConditionalOperationQueue, operationDidFinish operation: Foundation.Operation,
                    errors: [any Error]
                ) { first.countDown() }
            }
            let queue = ConditionalOperationQueue()
            let delegate = FinishesHeard()
            queue.delegate = delegate
            let first = CountedFetch(key: "again", finishesAtOnce: true)
            let second = CountedFetch(key: "again")
            first.whenFinished { queue.addOperation(second) }
            queue.addOperation(first)
            #expect(await second.executing.wait(seconds: 10))
            #expect(await delegate.first.wait(seconds: 10), "the queue forgot the first")
            let third = CountedFetch(key: "again")
            queue.addOperation(third)
            #expect(third.coalescedInto === second)
            second.release()
            #expect(try await within { try await third.value }?.get() == 42)
        }

        @Test func S27_theSameKeyOnAnotherClassOrAnotherKeyDoesNotJoin() async throws {
            let queue = ConditionalOperationQueue()
            let first = await Self.joined(1, key: "k", on: queue)[0]
            let other = OtherFetch()
            other.coalescingKey = "k"
            let otherKey = CountedFetch(key: "l", finishesAtOnce: true)
            #expect(try await within { try await queue.run(other) }?.get() == 7)
            #expect(try await within { try await queue.run(otherKey) }?.get() == 42)
            #expect(other.coalescedInto == nil && otherKey.coalescedInto == nil)
            first.release()
        }

        @Test(arguments: [false, true])
        func S27_onAPlainQueueOrAnotherQueueTheKeyDoesNothing(plain: Bool) async throws {
            let first = await Self.joined(1, key: "k", on: ConditionalOperationQueue())[0]
            let elsewhere = CountedFetch(key: "k", executions: first.executions, finishesAtOnce: true)
            let queue: OperationQueue = plain ? OperationQueue() : ConditionalOperationQueue()
            #expect(try await within { try await queue.run(elsewhere) }?.get() == 42)
            #expect(elsewhere.coalescedInto == nil && first.executions.current == 2)
            first.release()
        }

        @Test func S27_aJoinersConditionsAreNotEvaluated() async throws {
            let queue = ConditionalOperationQueue()
            let first = await Self.joined(1, on: queue)[0]
            let evaluations = Counter()
            let joiner = CountedFetch(key: "user:42")
            joiner.addCondition(BlockCondition { evaluations.increment() > 0 })
            queue.addOperation(joiner)
            first.release(with: .success(3))
            #expect(try await within { try await joiner.value }?.get() == 3)
            #expect(evaluations.current == 0)
        }

        @Test func S27_aJoinersDiagnosisNamesTheOperationItWaitsFor() async {
            let operations = await Self.joined(2, on: ConditionalOperationQueue())
            operations[0].name = "first"
            guard case .dependencies(let awaited) = operations[1].diagnosis.reason else {
                Issue.record("\(operations[1].diagnosis)")
                return
            }
            #expect(awaited == [.init(name: "CountedFetch 'first'", state: .executing)])
            operations[0].release()
        }

        @Test func S27_aSkippedJoinedOperationSkipsItsJoiners() async {
            let queue = ConditionalOperationQueue()
            let skipped = CountedFetch(key: "skip")
            let answer = Latch()
            skipped.addCondition(
                SkippingCondition(
                    AsyncCondition {
                        _ = await answer.wait()
                        return false
                    }))
            queue.addOperation(skipped)
            let joiner = CountedFetch(key: "skip")
            queue.addOperation(joiner)
            answer.countDown()
            _ = await within { try? await joiner.value }
            #expect(skipped.isSkipped && joiner.isSkipped && joiner.coalescedInto === skipped)
        }

        @Test func S27_childrenOfAGroupJoinWithinTheGroupsQueueOnly() async {
            let executions = Counter()
            let groups = (0..<2).map { _ in
                GroupOperation(
                    operations: (0..<3).map { _ in
                        CountedFetch(key: "child", executions: executions, finishesAtOnce: false)
                    })
            }
            let queue = ConditionalOperationQueue()
            for group in groups { queue.addOperation(group) }
            await waitUntil { executions.current == 2 }
            let children = groups.flatMap(\.children).compactMap { $0 as? CountedFetch }
            await waitUntil { children.filter { $0.coalescedInto != nil }.count == 4 }
            for child in children where child.coalescedInto == nil { child.release() }
            let idle = await within { await queue.waitUntilIdle() }
            #expect(idle != nil)
            #expect(executions.current == 2, "one execution per group's queue")
            #expect(children.allSatisfy { $0.result?.success == 42 })
        }

        /// S12: a finished joined operation holds none of its joiners, and a cancelled joiner is
        /// not kept alive by the operation it joined.
        @Test func S27_aFinishedJoinedOperationHoldsNoJoiner() async {
            let queue = ConditionalOperationQueue()
            let first = await Self.joined(1, on: queue)[0]
            weak var cancelledJoiner: CountedFetch?
            weak var joiner: CountedFetch?
            do {
                let cancelled = CountedFetch(key: "user:42")
                let waiting = CountedFetch(key: "user:42")
                cancelledJoiner = cancelled
                joiner = waiting
                queue.add([cancelled, waiting])
                cancelled.cancel()
                _ = await within { try? await cancelled.value }
            }
            await waitUntil { cancelledJoiner == nil }
            #expect(cancelledJoiner == nil, "the unfinished joined operation does not keep it")
            first.release()
            await waitUntil { joiner == nil }
            #expect(joiner == nil)
        }
    }
}

extension OperationDiagnosis.Reason {
    fileprivate var finishedErrorCount: Int? {
        if case .finished(let errors) = self { errors.count } else { nil }
    }
}

extension Result {
    fileprivate var success: Success? {
        if case .success(let value) = self { value } else { nil }
    }
}
