import ConditionalOperationsTesting
import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests.CompositionTests {
    /// S32, S33: every composite inside every bounded container, with every limiter, three at a
    /// time, so that a container narrower than the composites makes them contend: each case
    /// finishes within a bounded wait, without an error. `ADVERSARY_MULTIPLIER=100` (the long mode)
    /// runs every case a hundred times.
    @Suite struct CompositionMatrixTests {
        enum Composite: String, CaseIterable, Sendable {
            case group, retry, `repeat`, delay, map, coalesced
        }

        struct Container: Sendable, CustomStringConvertible {
            let isGroup: Bool
            let width: Int
            var description: String { "\(isGroup ? "group" : "queue") of \(width)" }
            static let all = [1, 2, 3].flatMap {
                [Container(isGroup: true, width: $0), Container(isGroup: false, width: $0)]
            }
        }

        enum Limiter: String, CaseIterable, Sendable {
            case none, category, limit, rate
        }

        static let count = 3

        /// A fetch of one class, so that a key joins another's (S27).
        final class MatrixFetch: ResultOperation<Int>, @unchecked Sendable {
            override func execute() {
                DispatchQueue.global().async { self.finish(returning: 1) }
            }
        }

        /// The limiter's conditions, each made once per case: one name per case, since categories
        /// and rate limits are process-wide.
        static func conditions(_ limiter: Limiter, unique: String) -> [any OperationCondition] {
            switch limiter {
            case .none: []
            case .category: [MutuallyExclusive(category: "matrix-\(unique)")]
            case .limit: [MutuallyExclusive(category: "matrix-limit-\(unique)", limit: 2)]
            case .rate: [RateLimit("matrix-rate-\(unique)", permits: 2, per: .milliseconds(20))]
            }
        }

        static func leaf(_ limiter: [any OperationCondition], failing: Bool = false) -> ResultOperation<Int> {
            let leaf = ClosureOperation<Int> { operation in
                DispatchQueue.global().async {
                    if failing {
                        operation.finish(error: TestError(1))
                    } else {
                        operation.finish(returning: 1)
                    }
                }
            }
            for condition in limiter { leaf.addCondition(condition) }
            return leaf
        }

        /// One composite and what must be added beside it (a map's producer), with the limiter on
        /// the composite and on what it runs.
        static func unit(_ composite: Composite, _ limiter: [any OperationCondition], key: String)
            -> [ConditionalOperation]
        {
            let made: [ConditionalOperation]
            switch composite {
            case .group:
                made = [GroupOperation(operations: [leaf(limiter), leaf(limiter)])]
            case .retry:
                made = [RetryOperation<Int>(maximumAttempts: 2) { leaf(limiter, failing: $0 == 1) }]
            case .repeat:
                made = [RepeatOperation<Int>(maximumCount: 2) { _ in leaf(limiter) }]
            case .delay:
                made = [DelayOperation(interval: .milliseconds(1))]
            case .map:
                let producer = leaf(limiter)
                made = [producer.map { $0 + 1 }, producer]
            case .coalesced:
                let fetch = MatrixFetch()
                fetch.coalescingKey = key
                made = [fetch]
            }
            for condition in limiter { made[0].addCondition(condition) }
            return made
        }

        @Test(arguments: Composite.allCases, Limiter.allCases)
        func S32S33_everyCompositeInEveryBoundedContainerWithEveryLimiter(
            composite: Composite, limiter: Limiter
        )
            async
        {
            let rounds = Container.all.flatMap {
                Array(repeating: $0, count: AdversaryConfiguration.multiplier)
            }
            for container in rounds {
                let unique = UUID().uuidString
                let conditions = Self.conditions(limiter, unique: unique)
                let operations = (0..<Self.count).flatMap { _ in Self.unit(composite, conditions, key: unique)
                }
                let queue = ConditionalOperationQueue()
                let outer = container.isGroup ? GroupOperation(operations: operations) : nil
                if let outer {
                    outer.maxConcurrentChildren = container.width
                    queue.addOperation(outer)
                } else {
                    queue.maxConcurrentOperationCount = container.width
                    queue.addOperations(operations, waitUntilFinished: false)
                }
                let outcome = await within(seconds: 20) {
                    for operation in operations { await operation.untilFinished() }
                    await outer?.untilFinished()
                }
                let stuck = operations.filter { !$0.isFinished }.map(\.diagnosis.description)
                #expect(outcome != nil, "\(container): \(stuck)")
                guard outcome != nil else {
                    outer?.cancel()
                    queue.cancelAllOperations()
                    return
                }
                let failed = operations.filter { !$0.errors.isEmpty }.map(\.diagnosticName)
                #expect(failed.isEmpty, "\(container): \(failed)")
                #expect(outer?.errors.isEmpty ?? true, "\(container): the group failed")
            }
        }
    }
}
