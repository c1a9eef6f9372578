import Foundation

/// The answers of a combinator's members, each counted once (S2: a member calling its completion
/// twice is counted once), until the combinator answered. Keeps only what the combinator's answer
/// needs: the failures in the members' order and whether one skipped, so that members all
/// satisfied cost one allocation: the lock and the state, together.
struct MemberAnswers: Sendable {
    struct Summary {
        /// The failed members' errors, in the members' order.
        var failures: [any Error] { indexedFailures.sorted { $0.index < $1.index }.map(\.error) }
        fileprivate(set) var indexedFailures: [(index: Int, error: any Error)] = []
        fileprivate(set) var skipped = false
    }

    private struct State {
        var unanswered: Int
        /// Which members answered: the first 64 in a mask, the rest in a set.
        var answeredMask: UInt64 = 0
        var answeredBeyond: Set<Int> = []
        var isSettled = false
        var summary = Summary()

        mutating func markAnswered(_ index: Int) -> Bool {
            if index < 64 {
                let bit = UInt64(1) << UInt64(index)
                guard answeredMask & bit == 0 else { return false }
                answeredMask |= bit
                return true
            }
            return answeredBeyond.insert(index).inserted
        }
    }

    private let state: Locked<State>

    init(count: Int) {
        state = Locked(State(unanswered: count))
    }

    /// Records member `index`'s answer. `settlesEarly` says whether that answer alone decides;
    /// returns the summary once the combinator must answer now (early, or all answered), else nil.
    func record(_ result: OperationConditionResult, at index: Int, settlesEarly: Bool) -> Summary? {
        state.withLock { state in
            guard !state.isSettled, state.markAnswered(index) else { return nil }
            switch result {
            case .satisfied: break
            case .failed(let error): state.summary.indexedFailures.append((index, error))
            case .skipped: state.summary.skipped = true
            }
            state.unanswered -= 1
            guard settlesEarly || state.unanswered == 0 else { return nil }
            state.isSettled = true
            return state.summary
        }
    }
}

extension OperationConditionResult {
    var isSatisfied: Bool {
        if case .satisfied = self { return true }
        return false
    }
}
