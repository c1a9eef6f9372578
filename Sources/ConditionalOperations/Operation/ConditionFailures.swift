extension Array where Element == any Error {
    /// Records a failed condition's error, listing each failed or cancelled dependency once, and
    /// each error of a combinator's failure (``CombinedConditionError``) as one of its own.
    ///
    /// Several conditions may report the same dependency (`inject(from:)` and
    /// ``NoFailedDependencies`` both see a failed producer). An operation records at most one
    /// ``OperationError/dependenciesFailed(_:)`` and one ``OperationError/dependenciesCancelled(_:)``
    /// this way: a later one is merged into the one already recorded, which keeps its place and
    /// gains the dependencies it does not list yet. Every other error is appended.
    mutating func appendConditionFailure(_ error: any Error) {
        if let combined = error as? CombinedConditionError {
            // A combinator's failure: each member's error is an element of its own (S18).
            for member in combined.errors { appendConditionFailure(member) }
            return
        }
        guard let failure = error as? OperationError, !failure.failedDependencies.isEmpty else {
            return append(error)
        }
        for index in indices {
            guard let recorded = self[index] as? OperationError else { continue }
            switch (recorded, failure) {
            case (.dependenciesFailed(let known), .dependenciesFailed(let new)):
                self[index] = OperationError.dependenciesFailed(Self.union(known, new))
                return
            case (.dependenciesCancelled(let known), .dependenciesCancelled(let new)):
                self[index] = OperationError.dependenciesCancelled(Self.union(known, new))
                return
            default:
                continue
            }
        }
        append(error)
    }

    /// `known`, then the dependencies of `new` that `known` does not list, each once.
    private static func union(
        _ known: [OperationError.FailedDependency], _ new: [OperationError.FailedDependency]
    ) -> [OperationError.FailedDependency] {
        var listed = Set(known.map(\.id))
        return known + new.filter { listed.insert($0.id).inserted }
    }
}
