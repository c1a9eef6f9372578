import ConditionalOperations
import Foundation

/// An observer that writes down every callback it gets, in order, for a test to compare.
///
/// ```swift
/// let observer = RecordingObserver()
/// operation.addObserver(observer)
/// queue.addOperation(operation)
/// try await operation.untilFinished(timeout: .seconds(5))
/// #expect(observer.log == ["didStart", "didProduce(BlockOperation)", "didFinish(0)"])
/// #expect(observer.callbacks == ["didStart", "didProduce", "didFinish"])
/// ```
///
/// Add one observer to one operation: the library calls an operation's observers one at a time,
/// so its log is in the order the callbacks happened. Safe to read from any thread.
public final class RecordingObserver: OperationObserver, @unchecked Sendable {  // stored vars: under `lock`
    /// One callback: its name and, for all but `didStart`, what it was given.
    private struct Entry {
        let callback: String
        let argument: String?
    }

    private let lock = NSLock()
    private var entries: [Entry] = []
    private var running = 0
    private var overlaps = 0

    /// An observer with an empty log.
    ///
    /// ```swift
    /// let observer = RecordingObserver()
    /// ```
    public init() {}

    /// Every callback so far, in order, with what it was given: `"didStart"`,
    /// `"didProduce(…)"` with the produced operation's `name` (or its type's name when it has
    /// none), `"didCancel(n)"` and `"didFinish(n)"` with the number of errors the operation had.
    ///
    /// ```swift
    /// #expect(observer.log == ["didStart", "didCancel(1)", "didFinish(1)"])
    /// ```
    public var log: [String] {
        lock.lock()
        defer { lock.unlock() }
        return entries.map { entry in entry.argument.map { "\(entry.callback)(\($0))" } ?? entry.callback }
    }

    /// Every callback so far, in order, by name alone (`"didStart"`, `"didProduce"`,
    /// `"didCancel"`, `"didFinish"`), for a test about order rather than arguments.
    ///
    /// ```swift
    /// #expect(observer.callbacks == ["didCancel", "didFinish"], "it never started")
    /// ```
    public var callbacks: [String] {
        lock.lock()
        defer { lock.unlock() }
        return entries.map(\.callback)
    }

    /// How many callbacks began while another of this observer's was still running: 0 for an
    /// observer of one operation, whose observers are called one at a time.
    ///
    /// ```swift
    /// #expect(observer.overlapCount == 0)
    /// ```
    public var overlapCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return overlaps
    }

    /// Part of `OperationObserver`: records `"didStart"`.
    ///
    /// ```swift
    /// observer.operationDidStart(operation)  // what the library does
    /// ```
    public func operationDidStart(_ operation: ConditionalOperation) {
        record("didStart", nil)
    }

    /// Part of `OperationObserver`: records `"didProduce(name)"`.
    ///
    /// ```swift
    /// observer.operation(operation, didProduce: BlockOperation {})  // what the library does
    /// ```
    public func operation(_ operation: ConditionalOperation, didProduce newOperation: Foundation.Operation) {
        record("didProduce", newOperation.name ?? String(describing: type(of: newOperation)))
    }

    /// Part of `OperationObserver`: records `"didCancel(n)"`, `n` the number of errors.
    ///
    /// ```swift
    /// observer.operationDidCancel(operation, errors: [])  // what the library does
    /// ```
    public func operationDidCancel(_ operation: ConditionalOperation, errors: [any Error]) {
        record("didCancel", "\(errors.count)")
    }

    /// Part of `OperationObserver`: records `"didFinish(n)"`, `n` the number of errors.
    ///
    /// ```swift
    /// observer.operationDidFinish(operation, errors: operation.errors)  // what the library does
    /// ```
    public func operationDidFinish(_ operation: ConditionalOperation, errors: [any Error]) {
        record("didFinish", "\(errors.count)")
    }

    /// Records one callback, counting it as an overlap if another one had not returned yet.
    private func record(_ callback: String, _ argument: String?) {
        // Three trips, so that the callback lasts a while and one running beside it is seen.
        lock.lock()
        running += 1
        if running > 1 { overlaps += 1 }
        lock.unlock()
        lock.lock()
        entries.append(Entry(callback: callback, argument: argument))
        lock.unlock()
        lock.lock()
        running -= 1
        lock.unlock()
    }
}
