import Foundation

extension ConditionalOperation {
    /// Makes this operation depend on `producer` and hands it the producer's output before it
    /// executes.
    ///
    /// ```swift
    /// final class ProcessUsersOperation: ConditionalOperation, @unchecked Sendable {
    ///     private let lock = NSLock()
    ///     private var users: [User] = []  // behind `lock`: handed over from another thread
    ///     func receive(_ users: [User]) { lock.withLock { self.users = users } }
    ///     override func execute() {
    ///         let users = lock.withLock { self.users }
    ///         save(users)
    ///         finish()
    ///     }
    /// }
    ///
    /// let fetch = FetchUsersOperation()  // a ResultOperation<[User]>
    /// let process = ProcessUsersOperation()
    /// process.inject(from: fetch) { process, users in process.receive(users) }
    /// queue.addOperations([fetch, process], waitUntilFinished: false)
    /// ```
    ///
    /// `handOver` runs once the producer finished, on the thread that finished it, and before this
    /// operation executes. If the producer was cancelled, this operation finishes without
    /// executing, with ``OperationError/dependenciesCancelled(_:)``; if it failed (or finished
    /// without a value), with ``OperationError/dependenciesFailed(_:)``: either lists the producer,
    /// by name, with its own errors (none if it finished without a value). If `handOver` throws,
    /// it finishes with that error. None of these is a cancellation.
    ///
    /// The hand-over is a condition of this operation: call `inject` where conditions are added,
    /// before the operation is enqueued or started (S13). It is released once evaluated, and holds
    /// neither operation beyond that.
    public func inject<Output>(
        from producer: ResultOperation<Output>, _ handOver: @escaping @Sendable (Self, Output) throws -> Void
    ) {
        // The condition first: once the operation is admitted, a condition comes too late (S13).
        addCondition(
            InjectionCondition(producer: producer) { operation, output in
                guard let consumer = operation as? Self else { return }
                try handOver(consumer, output)
            })
        addDependency(producer)
    }
}
