import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests {
    @Suite struct CoalescingTests {}
}

/// A fetch that counts its executions and finishes when the test says (``release(with:)``), or at
/// once when made with `finishesAtOnce`.
final class CountedFetch: ResultOperation<Int>, @unchecked Sendable {
    // stored state: lets only (a counter, latches, a constant)
    let executions: Counter
    let executing = Latch()
    private let finishesAtOnce: Bool

    init(key: String?, executions: Counter = Counter(), finishesAtOnce: Bool = false) {
        self.executions = executions
        self.finishesAtOnce = finishesAtOnce
        super.init()
        coalescingKey = key
    }

    override func execute() {
        executions.increment()
        executing.countDown()
        if finishesAtOnce { finish(returning: 42) }
    }

    func release(with result: Result<Int, any Error> = .success(42)) {
        finish(with: result)
    }
}

/// Another class with the same output: the same key on it never joins a ``CountedFetch``.
final class OtherFetch: ResultOperation<Int>, @unchecked Sendable {
    override func execute() { finish(returning: 7) }
}
