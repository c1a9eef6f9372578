import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests.CompositionTests {
    /// S29: `producer.map(transform)` depends on the producer, executes `transform` on its output
    /// and finishes with what it returned or threw; a producer that failed, was cancelled or was
    /// skipped fails it as `inject(from:_:)` does, the root cause kept.
    @Suite struct S29MapTests {
        static func queue(conditional: Bool) -> OperationQueue {
            conditional ? ConditionalOperationQueue() : OperationQueue()
        }

        static func named<Output>(_ name: String, _ operation: ResultOperation<Output>) -> ResultOperation<
            Output
        > {
            operation.name = name
            return operation
        }

        /// The first error of `operation`, described, or "" when it has none.
        static func firstError(of operation: ConditionalOperation) -> String {
            operation.errors.first.map { "\($0)" } ?? ""
        }

        @Test(arguments: [false, true])
        func S29_mapFinishesWithTheTransformedOutput(conditional: Bool) async throws {
            let producer = ValueOperation(.success(21), later: true)
            let transforms = Counter()
            let doubled = producer.map { value in
                transforms.increment()
                return "\(value * 2)"
            }
            let done = completionLatch([doubled])
            Self.queue(conditional: conditional).add([doubled, producer])  // the mapped one first
            #expect(await done.wait())
            #expect(try doubled.result?.get() == "42")
            #expect(doubled.dependencies.first === producer, "it depends on its producer")
            #expect(doubled.errors.isEmpty && !doubled.isCancelled && !doubled.isSkipped)
            #expect(transforms.current == 1)
        }

        @Test(arguments: [false, true])
        func S29_aTransformThatThrowsFinishesTheMappedOperationWithItsError(conditional: Bool) async {
            let producer = ValueOperation(.success(1))
            let didStart = Counter()
            let mapped = producer.map { (_: Int) -> String in throw TestError(5) }
            mapped.addObserver(BlockObserver(didStart: { _ in didStart.increment() }))
            let done = completionLatch([mapped])
            Self.queue(conditional: conditional).add([producer, mapped])
            #expect(await done.wait())
            #expect(testErrorIDs(mapped.errors) == [5])
            #expect(mapped.result?.failure as? TestError == TestError(5))
            #expect(didStart.current == 1, "the transform runs as the mapped operation executes")
            #expect(!mapped.isCancelled)
        }

        @Test(arguments: [false, true])
        func S29_aFailedProducerFailsTheMappedOperationKeepingTheRootCause(conditional: Bool) async {
            let producer = Self.named("fetch", ValueOperation<Int>(.failure(TestError(1))))
            let mapped = producer.map { (_: Int) -> Int in
                Issue.record("transformed the output of a failed producer")
                return 0
            }
            let done = completionLatch([mapped])
            Self.queue(conditional: conditional).add([producer, mapped])
            #expect(await done.wait())
            #expect(
                mapped.errors.map { $0 as? OperationError }
                    == [.dependenciesFailed([.expected("fetch", [TestError(1)])])])
            let error = mapped.errors.first as? OperationError
            #expect(testErrorIDs(error?.underlyingErrors ?? []) == [1], "the root cause is kept")
            #expect(
                Self.firstError(of: mapped)
                    == "1 dependency failed: dependency 'fetch' failed: TestError(id: 1)")
            #expect(!mapped.isCancelled)
        }

        @Test(arguments: [false, true])
        func S29_aCancelledProducerFailsTheMappedOperationWithoutCancellingIt(conditional: Bool) async {
            let producer = Self.named("fetch", ValueOperation(.success(1)))
            producer.cancel(with: TestError(2))
            let mapped = producer.map { $0 + 1 }
            let done = completionLatch([mapped])
            Self.queue(conditional: conditional).add([producer, mapped])
            #expect(await done.wait())
            #expect(
                mapped.errors.map { $0 as? OperationError }
                    == [.dependenciesCancelled([.expected("fetch", [TestError(2)], cancelled: true)])])
            #expect(!mapped.isCancelled, "a failed condition is not a cancellation")
            #expect(mapped.result?.failure is OperationError)
        }

        @Test(arguments: [false, true])
        func S29_aSkippedProducerFailsTheMappedOperationSayingSo(conditional: Bool) async {
            let producer = Self.named("refresh", ValueOperation(.success(1)))
            producer.addCondition(SkippingCondition(BlockCondition(name: "stale") { false }))
            let mapped = producer.map { $0 + 1 }
            let done = completionLatch([mapped])
            Self.queue(conditional: conditional).add([producer, mapped])
            #expect(await done.wait())
            #expect(producer.isSkipped)
            #expect(Self.firstError(of: mapped) == "1 dependency failed: dependency 'refresh' was skipped")
            #expect(!mapped.isSkipped && !mapped.isCancelled)
        }

        @Test func S29_chainedMapsTransformInTurnAndKeepTheRootCause() async throws {
            let producer = ValueOperation(.success(3))
            let chained = producer.map { $0 * 2 }.map { "\($0)" }.map { $0 + "!" }
            let outcome = try #require(
                await within {
                    let queue = ConditionalOperationQueue()
                    var operations: [Foundation.Operation] = [chained]
                    while let dependency = operations.last?.dependencies.first {
                        operations.append(dependency)
                    }
                    queue.add(operations.reversed())
                    return try await chained.value
                })
            #expect(try outcome.get() == "6!")

            let failing = Self.named("load", ValueOperation<Int>(.failure(TestError(7))))
            let first = failing.map { $0 * 2 }
            let second = first.map { "\($0)" }
            #expect(first.name == "load.map" && second.name == "load.map(2)")
            let done = completionLatch([second])
            OperationQueue().add([second, first, failing])
            #expect(await done.wait())
            let error = second.errors.first as? OperationError
            #expect(error?.failedDependencies.map(\.name) == ["load.map"])
            #expect(testErrorIDs(error?.underlyingErrors ?? []) == [7], "the root cause, through both maps")
        }

        @Test(arguments: [false, true])
        func S29_queueRunReturnsTheMappedOutputOnceTheProducerWasAdded(conditional: Bool) async throws {
            let queue = Self.queue(conditional: conditional)
            let producer = ValueOperation(.success([1, 2, 3]), later: true)
            queue.addOperation(producer)
            let outcome = try #require(await within { try await queue.run(producer.map { $0.reduce(0, +) }) })
            #expect(try outcome.get() == 6)

            let failing = ValueOperation<Int>(.failure(TestError(4)))
            queue.addOperation(failing)
            let failure = try #require(await within { try await queue.run(failing.map { $0 + 1 }) })
            let error = failure.failure as? OperationError
            #expect(
                testErrorIDs(error?.underlyingErrors ?? []) == [4],
                "run throws the failure with its root cause")
        }

        @Test func S29_S23_aVoidProducerIsMapped() async throws {
            let save = ClosureOperation<Void>(name: "save") { $0.finish() }
            let queue = ConditionalOperationQueue()
            queue.addOperation(save)
            let outcome = try #require(await within { try await queue.run(save.map { "saved" }) })
            #expect(try outcome.get() == "saved")
        }

        @Test func S29_aProducerThatFinishedBeforeTheMapStillHandsItsOutputOver() async throws {
            let producer = ValueOperation(.success(5))
            let done = completionLatch([producer])
            OperationQueue().addOperation(producer)
            #expect(await done.wait())
            let outcome = try #require(
                await within { try await OperationQueue().run(producer.map { $0 + 1 }) })
            #expect(try outcome.get() == 6)
        }

        @Test func S29_theMappedOperationIsNamedAfterItsProducer() {
            #expect(Self.named("fetch", ValueOperation(.success(1))).map { $0 }.name == "fetch.map")
            #expect(ValueOperation(.success(1)).map { $0 }.name == "ValueOperation<Int>.map")
        }

        /// A map of a map counts instead of growing its name: 2,000 maps held 8 MB of names
        /// ("load.map.map…"), and describing their failure took seconds.
        @Test func S29_aLongChainOfMapsKeepsShortNames() {
            var last: ResultOperation<Int> = Self.named("load", ValueOperation<Int>(.success(1)))
            for _ in 0..<2_000 { last = last.map { $0 + 1 } }
            #expect(last.name == "load.map(2000)")
            let renamed = last.map { $0 }
            renamed.name = "parse"
            #expect(renamed.map { $0 }.name == "parse.map")
        }
    }
}
