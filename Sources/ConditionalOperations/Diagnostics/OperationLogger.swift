/// Receives what operations do, for logs: state changes, condition answers with their durations,
/// waits for exclusivity categories, cancels and finishes with their errors.
///
/// Attach one to an operation with ``ConditionalOperation/addLogger(_:)``, or to every operation
/// added to a queue with ``ConditionalOperationQueue/logger``. Nothing is logged, and nothing
/// costs anything, where none is attached. Records of one logger arrive one at a time, on a serial
/// queue of the library's, in the order they happened for each operation; none is made while a
/// lock of the library is held.
///
/// An adapter for swift-log (the package itself depends on nothing):
///
/// ```swift
/// struct SwiftLogOperationLogger: OperationLogger {
///     let logger: Logger
///     func log(_ record: OperationLogRecord) {
///         logger.log(level: record.isFailure ? .warning : .debug, "\(record)")
///     }
/// }
/// queue.logger = SwiftLogOperationLogger(logger: Logger(label: "operations"))
/// ```
public protocol OperationLogger: Sendable {
    /// Receives one record, on the library's serial queue of this logger; it must not block for
    /// long, or the records after it wait.
    func log(_ record: OperationLogRecord)
}

/// A logger made of a closure: `queue.logger = BlockLogger { print($0) }`.
public struct BlockLogger: OperationLogger {
    private let body: @Sendable (OperationLogRecord) -> Void

    /// A logger calling `body` with each record.
    public init(_ body: @escaping @Sendable (OperationLogRecord) -> Void) {
        self.body = body
    }

    /// Calls the closure with `record`.
    public func log(_ record: OperationLogRecord) {
        body(record)
    }
}
