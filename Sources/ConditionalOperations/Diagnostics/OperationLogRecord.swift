import Foundation

/// One thing an operation did, as an ``OperationLogger`` receives it.
public struct OperationLogRecord: Sendable, CustomStringConvertible {
    /// The operation it happened to.
    public let operation: ConditionalOperation
    /// When it happened.
    public let date: Date
    /// What happened.
    public let event: Event

    /// What happened.
    public enum Event: Sendable {
        /// The operation's state changed (the first record is the state it had when the logger
        /// was attached).
        case stateChanged(ConditionalOperation.State)
        /// A condition answered, `seconds` after the conditions began to be evaluated (S2).
        case conditionEvaluated(name: String, result: OperationConditionResult, seconds: TimeInterval)
        /// The conditions passed, and these categories are held by others: it waits (S7).
        case waitingForCategories([String])
        /// The categories it waited for are its own, after `waited` seconds.
        case acquiredCategories([String], waited: TimeInterval)
        /// The operation was cancelled; `errors` are its errors at that moment, as
        /// ``OperationObserver/operationDidCancel(_:errors:)`` receives them.
        case cancelled(errors: [any Error])
        /// The operation finished with `errors` (empty if it succeeded); the operation's last record.
        case finished(errors: [any Error])
    }

    /// Whether the record tells of a failure: a failed condition, a cancel, or a finish with errors.
    public var isFailure: Bool {
        switch event {
        case .conditionEvaluated(_, .failed, _), .cancelled: true
        case .finished(let errors): !errors.isEmpty
        case .stateChanged, .conditionEvaluated, .waitingForCategories, .acquiredCategories: false
        }
    }

    /// The operation and the event, on one line: `Upload 'photos': finished with 1 error: …`;
    /// an operation a condition skipped (S17) finishes `skipped`.
    public var description: String {
        if case .finished(let errors) = event, errors.isEmpty, operation.isSkipped {
            return "\(operation.diagnosticName): finished, skipped"
        }
        return "\(operation.diagnosticName): \(event)"
    }
}

extension OperationLogRecord.Event: CustomStringConvertible {
    /// The event on one line, durations in seconds: `condition Reachable satisfied in 0.012 s`.
    public var description: String {
        switch self {
        case .stateChanged(let state):
            return "state \(state)"
        case .conditionEvaluated(let name, .satisfied, let seconds):
            return "condition \(name) satisfied in \(Self.format(seconds))"
        case .conditionEvaluated(let name, .failed(let error), let seconds):
            return "condition \(name) failed in \(Self.format(seconds)): \(error)"
        case .conditionEvaluated(let name, .skipped, let seconds):
            return "condition \(name) skipped the operation in \(Self.format(seconds))"
        case .waitingForCategories(let categories):
            return "waiting for exclusivity: \(categories.joined(separator: ", "))"
        case .acquiredCategories(let categories, let waited):
            return "acquired \(categories.joined(separator: ", ")) after \(Self.format(waited))"
        case .cancelled(let errors):
            return errors.isEmpty ? "cancelled" : "cancelled: \(Self.list(errors))"
        case .finished(let errors):
            return errors.isEmpty ? "finished" : "finished with \(Self.list(errors))"
        }
    }

    private static func format(_ seconds: TimeInterval) -> String {
        String(format: "%.3f s", seconds)
    }

    private static func list(_ errors: [any Error]) -> String {
        errors.map { "\($0)" }.joined(separator: "; ")
    }
}
