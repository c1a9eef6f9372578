import Foundation

/// The answers of a combinator's members, each counted once (S2: a member calling its completion
/// twice is counted once), until the combinator answered.
final class MemberAnswers: Sendable {
    private struct State {
        var results: [OperationConditionResult?]
        var unanswered: Int
        var isSettled = false
    }

    private let state: Locked<State>

    init(count: Int) {
        state = Locked(State(results: Array(repeating: nil, count: count), unanswered: count))
    }

    /// Records member `index`'s answer. `settlesEarly` says whether that answer alone decides;
    /// returns every answer once the combinator must answer now (early, or all answered), else nil.
    func record(
        _ result: OperationConditionResult, at index: Int, settlesEarly: Bool
    ) -> [OperationConditionResult?]? {
        state.withLock { state in
            guard !state.isSettled, state.results[index] == nil else { return nil }
            state.results[index] = result
            state.unanswered -= 1
            guard settlesEarly || state.unanswered == 0 else { return nil }
            state.isSettled = true
            return state.results
        }
    }
}

extension OperationConditionResult {
    var isSatisfied: Bool {
        if case .satisfied = self { return true }
        return false
    }

    var failure: (any Error)? {
        if case .failed(let error) = self { return error }
        return nil
    }
}
