import Foundation

/// Where ``TransitionObserver``s write: timestamps relative to program start, and a count of the
/// transitions that were not printed, to keep the output short.
final class TransitionLog: Sendable {
    private struct Hidden {
        var operations = 0
        var started = 0
        var cancelled = 0
        var finished = 0
        var failed = 0
    }

    private let start = ContinuousClock.now
    private let hidden = Protected(Hidden())

    /// Prints `message` after the time elapsed since the log was created.
    func write(_ message: String) {
        print("[\(elapsed(width: 8))] \(message)")
    }

    /// Counts a transition that was not printed.
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

    /// One line about the transitions that were counted but not printed.
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
