import Foundation

/// The evaluation of a combinator's member, which the combinator may end before the member
/// answered (``AnyOf`` once one member was satisfied): asynchronous work the member started for it
/// (``AsyncCondition``'s task) registers here and is cancelled then (S18).
///
/// Bound as a task-local while the combinator calls the member's `evaluate`, synchronously (a
/// task-local binds on the calling thread outside a task too), so nested members see it.
final class EvaluationScope: Sendable {
    @TaskLocal static var current: EvaluationScope?

    private let state = Locked<(isEnded: Bool, onEnd: [@Sendable () -> Void])>((false, []))

    /// Runs `body` when the scope ends, or now if it ended already.
    func onEnd(_ body: @escaping @Sendable () -> Void) {
        let ended = state.withLock { state -> Bool in
            if !state.isEnded { state.onEnd.append(body) }
            return state.isEnded
        }
        if ended { body() }
    }

    /// Ends the scope: what registered runs, once.
    func end() {
        let bodies = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.isEnded else { return [] }
            state.isEnded = true
            defer { state.onEnd = [] }
            return state.onEnd
        }
        for body in bodies { body() }
    }
}
