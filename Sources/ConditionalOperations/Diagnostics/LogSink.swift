import ConditionalOperationsMachines
import Dispatch
import Foundation

/// Where an ``OperationLogger``'s records go: its own serial queue, so that records are made and
/// delivered outside every lock, one at a time, in the order they were sent.
final class LogChannel: Sendable {
    let logger: any OperationLogger
    private let queue = DispatchQueue(label: "ConditionalOperations.log")

    init(_ logger: any OperationLogger) {
        self.logger = logger
    }

    /// Called under the operation's lock: only queues the work (names are user code).
    func log(_ operation: ConditionalOperation, _ event: @escaping @Sendable () -> OperationLogRecord.Event) {
        let date = Date()
        let logger = self.logger
        queue.async { logger.log(OperationLogRecord(operation: operation, date: date, event: event())) }
    }
}

/// A logger among an operation's event sinks: it is sent what the operation does
/// under its lock, and forwards it to its channel.
struct LogSink: EventSink {
    /// Unowned: the operation holds its sinks, and lets go of them when it finishes.
    unowned let operation: ConditionalOperation
    let channel: LogChannel

    func send(_ event: OperationEvent) {
        switch event {
        case .stateChanged(let state): channel.log(operation) { .stateChanged(state) }
        case .didCancel(let errors): channel.log(operation) { .cancelled(errors: errors) }
        case .didFinish(let errors): channel.log(operation) { .finished(errors: errors) }
        case .didStart, .didProduce: break  // the state change to `executing` tells the start
        }
    }

    func send(_ event: LogEvent) {
        switch event {
        case .conditionEvaluated(let condition, let result, let since):
            let condition = UncheckedCondition(condition)
            let seconds = since.seconds()
            channel.log(operation) {
                .conditionEvaluated(name: condition.base.name, result: result, seconds: seconds)
            }
        case .waitingForCategories(let categories, _):
            let names = ExclusivityController.unscopedNames(categories)
            channel.log(operation) { .waitingForCategories(names) }
        case .acquiredCategories(let categories, let since):
            let waited = since.seconds()
            let names = ExclusivityController.unscopedNames(categories)
            channel.log(operation) { .acquiredCategories(names, waited: waited) }
        case .grantedCategories, .joined:
            break  // no wait to tell of; a join is told as `pending`
        }
    }

    func end() {}
}

/// A condition carried to the logger's queue to be named there.
private struct UncheckedCondition: Sendable {
    let base: any OperationCondition
    init(_ base: any OperationCondition) { self.base = base }
}

extension ConditionalOperation {
    /// Sends `logger` what this operation does from now on: its current state at once, then every
    /// state change, condition answer, category wait, cancel and finish (``OperationLogger``).
    public func addLogger(_ logger: some OperationLogger) {
        addLogChannel(LogChannel(logger))
    }

    /// Several operations (a queue's) share a channel: their records come one at a time.
    func addLogChannel(_ channel: LogChannel) {
        let sink = LogSink(operation: self, channel: channel)
        if case .tellFinished(let errors) = addEventSink(sink) {
            channel.log(self) { .stateChanged(.finished) }
            channel.log(self) { .finished(errors: errors) }
        }
    }
}
