import ConditionalOperations
import Foundation

/// Where ``TransitionObserver``s write: the lines of the operations shown, kept per operation until
/// the program prints them, and a count of the transitions of the others, to keep the output short.
///
/// Observers are called on the threads of their operations, several at the same time. Printed at
/// once, the lines of different operations would interleave differently on every run; kept per
/// operation (whose own callbacks never overlap and come in order), they read the same every time.
final class TransitionLog: Sendable {
    private struct Hidden {
        var operations = 0
        var started = 0
        var cancelled = 0
        var finished = 0
        var failed = 0
    }

    private let start = ContinuousClock.now
    private let shown = Protected([String: [String]]())
    private let hidden = Protected(Hidden())

    /// Keeps `message` about `operation`, after the time elapsed since the log was created.
    func record(_ message: String, of operation: ConditionalOperation) {
        let label = Self.label(operation)
        let line = "[\(elapsed(width: 10))] \(label): \(message)"
        shown.withLock { $0[label, default: []].append(line) }
    }

    /// The lines kept about `operation`, in the order they came.
    func lines(of operation: ConditionalOperation) -> [String] {
        let label = Self.label(operation)
        return shown.withLock { $0[label] ?? [] }
    }

    /// An operation's name, or its type's.
    private static func label(_ operation: ConditionalOperation) -> String {
        operation.name ?? String(describing: type(of: operation))
    }

    /// Counts a transition that was not kept.
    func countHidden(
        started: Bool = false, cancelled: Bool = false, finished: Bool = false,
        failed: Bool = false
    ) {
        hidden.withLock {
            if started { $0.started += 1 }
            if cancelled { $0.cancelled += 1 }
            if finished {
                $0.finished += 1
                $0.operations += 1  // each operation finishes exactly once
            }
            if failed { $0.failed += 1 }
        }
    }

    /// One line about the transitions that were counted but not kept.
    func summaryOfHiddenLines() -> String {
        let hidden = hidden.withLock { $0 }
        guard hidden.operations > 0 else { return "Every transition was shown." }
        var parts = ["\(hidden.started) didStart", "\(hidden.finished) didFinish"]
        if hidden.cancelled > 0 { parts.append("\(hidden.cancelled) didCancel") }
        parts.append("\(hidden.failed) finished with errors")
        return "Not shown: the transitions of \(hidden.operations) other operations ("
            + parts.joined(separator: ", ") + ")."
    }

    /// The time since the log was created, in milliseconds, right-aligned in `width` characters.
    func elapsed(width: Int = 0, sign: Bool = true) -> String {
        let duration = ContinuousClock.now - start
        let tenths =
            duration.components.seconds * 10_000
            + duration.components.attoseconds / 100_000_000_000_000
        let text = "\(sign ? "+" : "")\(tenths / 10).\(tenths % 10) ms"
        return String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
