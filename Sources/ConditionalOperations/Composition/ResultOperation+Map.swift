import Foundation

extension ResultOperation {
    /// An operation that transforms this operation's output with `transform` (S29).
    ///
    /// ```swift
    /// let fetch = FetchUsersOperation()  // a ResultOperation<[User]>
    /// let names = fetch.map { users in users.map(\.name) }  // a ResultOperation<[String]>
    /// queue.addOperation(fetch)
    /// let userNames = try await queue.run(names)
    /// ```
    ///
    /// The new operation depends on this one, receives its output through
    /// ``ConditionalOperation/inject(from:_:)``, executes `transform` on it and finishes with what
    /// `transform` returned, or with the error it threw. It is not enqueued: add both operations,
    /// to one queue or to two (or pass it to `queue.run`).
    ///
    /// If this operation failed, was cancelled or was skipped (S17), the new one finishes without
    /// executing, as a consumer of `inject(from:_:)` does: with
    /// ``OperationError/dependenciesFailed(_:)`` or ``OperationError/dependenciesCancelled(_:)``
    /// listing this operation with its own errors, so that the root cause is kept
    /// (``OperationError/underlyingErrors`` reaches it through chained maps too). None of these is
    /// a cancellation of the new operation.
    ///
    /// It is named after this operation (`"fetch.map"`, or the type's name when this one has no
    /// name); a map of a map counts instead of growing (`"fetch.map(2)"`, `"fetch.map(3)"`), so that
    /// a long chain of maps keeps short names. Rename it as any operation. Call `map` before this
    /// operation finishes or after: the output is handed over either way.
    public func map<New: Sendable>(_ transform: @escaping @Sendable (Output) throws -> New)
        -> ResultOperation<New>
    {
        let name = OperationError.FailedDependency(self).name
        let earlier = (self as? any MapNaming)?.mapName
        let mapName = earlier.flatMap { $0.description == name ? $0.next : nil } ?? MapName(root: name)
        let mapped = MapOperation(transform: transform, name: mapName)
        mapped.inject(from: self) { mapped, output in mapped.receive(output) }
        return mapped
    }
}
