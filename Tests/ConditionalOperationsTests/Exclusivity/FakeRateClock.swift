import Foundation

@testable import ConditionalOperations

/// A rate limit's clock that moves only when a test says: its timers fire when ``advance(by:)``
/// passes their deadline, in deadline order, outside its lock.
final class FakeRateClock: RateClock, Sendable {
    private struct State {
        var now: UInt64 = 1_000_000_000
        /// How far each reading of `now` moves time on: time passing while the controller works.
        var tick: UInt64 = 0
        var wakes: [(deadline: UInt64, handler: @Sendable () -> Void)] = []
    }

    private let state = Locked(State())

    var now: UInt64 {
        state.withLock { state in
            defer { state.now += state.tick }
            return state.now
        }
    }

    /// Makes each later reading of `now` move time on by `nanoseconds` (0: time stands still).
    func tick(by nanoseconds: UInt64) {
        state.withLock { $0.tick = nanoseconds }
    }

    func wake(at deadline: UInt64, _ handler: @escaping @Sendable () -> Void) {
        state.withLock { $0.wakes.append((deadline, handler)) }
    }

    /// The deadlines of the timers set and not fired yet.
    var pendingDeadlines: [UInt64] { state.withLock { $0.wakes.map(\.deadline) } }

    /// Moves time on by `nanoseconds`, firing the timers that are due by then.
    func advance(by nanoseconds: UInt64) {
        let due = state.withLock { state -> [@Sendable () -> Void] in
            state.now += nanoseconds
            let now = state.now
            let due = state.wakes.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
            state.wakes.removeAll { $0.deadline <= now }
            return due.map(\.handler)
        }
        for handler in due { handler() }
    }
}
