import Dispatch

@testable import ConditionalOperations

/// Counts events down to zero (like a `DispatchGroup` whose wait holds no thread).
/// `wait(seconds:)` suspends without holding a thread and returns `false` when the time bound
/// passes first, so a stalled test fails instead of hanging.
final class Latch: Sendable {
    private struct State {
        var remaining: Int
        var nextWaiter = 0
        var waiters: [Int: CheckedContinuation<Bool, Never>] = [:]
    }

    private let state: Locked<State>

    init(count: Int = 1) {
        state = Locked(State(remaining: count))
    }

    var remaining: Int { state.withLock { $0.remaining } }

    /// One more event to wait for, for work whose amount is known only as it happens.
    func countUp() {
        state.withLock { $0.remaining += 1 }
    }

    func countDown() {
        let released = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            state.remaining -= 1
            guard state.remaining == 0 else { return [] }
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in released { waiter.resume(returning: true) }
    }

    func wait(seconds: Double = 20) async -> Bool {
        await withCheckedContinuation { continuation in
            let id = state.withLock { state -> Int? in
                guard state.remaining > 0 else { return nil }
                state.nextWaiter += 1
                state.waiters[state.nextWaiter] = continuation
                return state.nextWaiter
            }
            guard let id else { return continuation.resume(returning: true) }
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
                self.state.withLock { $0.waiters.removeValue(forKey: id) }?.resume(returning: false)
            }
        }
    }
}
