import Foundation

/// What came first in ``race(_:seconds:)``.
enum RaceOutcome<Value: Sendable>: Sendable {
    case value(Value)
    case timedOut
}

/// Runs `body` against a timer and returns whichever ends first.
///
/// Both run as child tasks of one group: the loser is cancelled and awaited before this returns,
/// so a wait that timed out leaves no task, no stream consumer and no timer behind. `body` must end
/// when its task is cancelled (an `AsyncStream` iteration or a continuation with a cancellation
/// handler does). The calling task's cancel ends both at once and throws `CancellationError`.
func race<Value: Sendable>(
    _ body: @escaping @Sendable () async -> Value,
    seconds: TimeInterval
) async throws -> RaceOutcome<Value> {
    let nanoseconds = nanoseconds(seconds)
    let outcome = await withTaskGroup(of: RaceOutcome<Value>.self) { group in
        group.addTask { .value(await body()) }
        group.addTask {
            // A one-shot timer, not a poll: its cancel wakes it at once.
            try? await Task.sleep(nanoseconds: nanoseconds)
            return .timedOut
        }
        let first = await group.next() ?? .timedOut
        group.cancelAll()
        return first
    }
    // Cancelled, both children ended early: neither a value nor a time-out means anything then.
    try Task.checkCancellation()
    return outcome
}

/// `seconds` as `Task.sleep` takes it; negative or NaN is no time, and a huge bound is forever
/// instead of an overflow trap.
private func nanoseconds(_ seconds: TimeInterval) -> UInt64 {
    guard seconds > 0 else { return 0 }
    let nanoseconds = seconds * 1_000_000_000
    return nanoseconds >= Double(UInt64.max) ? UInt64.max : UInt64(nanoseconds)
}

extension Duration {
    /// The duration as a `TimeInterval`, for the waits' `TimeInterval` forms.
    var seconds: TimeInterval {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
