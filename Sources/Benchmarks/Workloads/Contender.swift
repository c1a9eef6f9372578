import ConditionalOperations
import Foundation

/// One kind of operation that takes part in a comparison.
struct Contender: Sendable {
    /// Makes one operation, with whatever conditions and observers the scenario calls for.
    let make: @Sendable () -> Foundation.Operation
    /// Whether each operation carries one ``Tally``-counting `didFinish` observer.
    var countsFinishes = false
    /// The queue the operations run on.
    var queue: QueueKind = .plain

    /// Foundation's reference: an empty `BlockOperation`.
    static let blockOperation = Contender { BlockOperation {} }

    /// The library with nothing attached.
    static let noop = Contender { NoopOperation() }

    /// The library with one always-true condition and one observer that only counts.
    static let withConditionAndObserver = Contender(
        make: {
            let operation = NoopOperation()
            operation.addCondition(BlockCondition { true })
            operation.addObserver(
                BlockObserver(didFinish: { _, _ in Tally.recordFinish() }))
            return operation
        },
        countsFinishes: true)
}

extension Contender {
    /// Two `BlockCondition { true }` added separately: the baseline of `a && b`.
    static let withTwoConditions = Contender(
        make: {
            let operation = NoopOperation()
            operation.addCondition(BlockCondition { true })
            operation.addCondition(BlockCondition { true })
            return operation
        })

    /// The same two conditions as one `AllOf`, built by `&&`.
    static let withAllOfTwoConditions = Contender(
        make: {
            let operation = NoopOperation()
            operation.addCondition(BlockCondition { true } && BlockCondition { true })
            return operation
        })
}

extension Contender {
    /// The library with nothing attached, on a `ConditionalOperationQueue`.
    static let noopOnConditionalQueue = Contender(make: { NoopOperation() }, queue: .conditional)

    /// The same, on a queue recording a timeline (S36).
    static let noopOnRecordedConditionalQueue = Contender(
        make: { NoopOperation() }, queue: .conditionalWithTimeline)

    /// Foundation's nearest to one exclusivity category: a serial queue.
    static let blockOperationOnSerialQueue = Contender(make: { BlockOperation {} }, queue: .serial)

    /// The library, all operations in one exclusivity category, on a plain `OperationQueue`.
    static let exclusiveOnPlainQueue = Contender(
        make: {
            let operation = NoopOperation()
            operation.addCondition(MutuallyExclusive(category: "benchmark"))
            return operation
        })

    /// Foundation's `BlockOperation` on a queue running at most 4 at once.
    static let blockOperationOnQueueOfFour = Contender(make: { BlockOperation {} }, queue: .atMostFour)

    /// The library, all operations in one category with `limit: 4`, on a `ConditionalOperationQueue`.
    static let limitedOnConditionalQueue = Contender(
        make: {
            let operation = NoopOperation()
            operation.addCondition(MutuallyExclusive(category: "benchmark four", limit: 4))
            return operation
        },
        queue: .conditional)

    /// The library, all operations in one exclusivity category, on a `ConditionalOperationQueue`.
    static let exclusiveOnConditionalQueue = Contender(
        make: {
            let operation = NoopOperation()
            operation.addCondition(MutuallyExclusive(category: "benchmark"))
            return operation
        },
        queue: .conditional)
}

/// Which queue a contender's operations run on.
enum QueueKind: Sendable {
    case plain
    /// A plain queue with `maxConcurrentOperationCount = 1`.
    case serial
    /// A plain queue with `maxConcurrentOperationCount = 4`.
    case atMostFour
    case conditional
    /// A `ConditionalOperationQueue` recording an `OperationTimeline` of the default capacity.
    case conditionalWithTimeline

    func make() -> OperationQueue {
        switch self {
        case .plain: return OperationQueue()
        case .serial:
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 1
            return queue
        case .atMostFour:
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 4
            return queue
        case .conditional: return ConditionalOperationQueue()
        case .conditionalWithTimeline:
            let queue = ConditionalOperationQueue()
            queue.timeline = OperationTimeline()
            return queue
        }
    }
}

/// Foundation's side and ours, in the same shape.
struct Matchup: Sendable {
    var shape: Shape
    var foundation: Contender = .blockOperation
    var ours: Contender
}
