import ConditionalOperations
import Foundation

/// One kind of operation that takes part in a comparison.
struct Contender: Sendable {
    /// Makes one operation, with whatever conditions and observers the scenario calls for.
    let make: @Sendable () -> Foundation.Operation
    /// Whether each operation carries one ``Tally``-counting `didFinish` observer.
    var countsFinishes = false

    /// Foundation's reference: an empty `BlockOperation`.
    static let blockOperation = Contender { BlockOperation {} }

    /// The library with nothing attached.
    static let noop = Contender { NoopOperation() }

    /// The library with one always-true condition and one observer that only counts.
    static let withConditionAndObserver = Contender(
        make: {
            let operation = NoopOperation()
            operation.addCondition(BlockCondition { true })
            operation.addObserver(BlockObserver(didFinish: { _, _ in Tally.finishes.add(1, ordering: .relaxed) }))
            return operation
        },
        countsFinishes: true)
}

/// Foundation's side and ours, in the same shape.
struct Matchup: Sendable {
    var shape: Shape
    var foundation: Contender = .blockOperation
    var ours: Contender
}
