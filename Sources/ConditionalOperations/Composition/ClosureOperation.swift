/// An operation whose work is a closure that finishes it, now or later from any thread: the
/// ``ConditionalOperation`` counterpart of `BlockOperation`, for completion-handler work that
/// needs no subclass.
///
/// ```swift
/// let fetch = ClosureOperation<Data>(name: "fetch") { operation in
///     download(url) { result in operation.finish(with: result) }
/// }
/// ```
///
/// The closure gets the operation itself: it finishes it with ``ResultOperation/finish(returning:)``,
/// ``ResultOperation/finish(with:)`` or ``ConditionalOperation/finish(error:)``, and may check
/// `isCancelled` in long work. For `async` work, use ``AsyncOperation``.
public final class ClosureOperation<Output: Sendable>: ResultOperation<Output>, @unchecked Sendable {
    // no mutable state of its own
    private let work: @Sendable (ClosureOperation<Output>) -> Void

    /// Creates an operation named `name` whose work is `work`.
    public init(name: String? = nil, _ work: @escaping @Sendable (ClosureOperation<Output>) -> Void) {
        self.work = work
        super.init()
        if let name { self.name = name }
    }

    /// Runs the closure.
    public override func execute() {
        work(self)
    }
}
