import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests {
    /// Composition: groups, typed results and injection, retry, delay. Its suites nest here, so
    /// that `swift test --filter Composition` runs them all.
    @Suite struct CompositionTests {}
}

/// A `ResultOperation` that finishes with a fixed result, at once or later from another thread.
final class ValueOperation<Output: Sendable>: ResultOperation<Output>, @unchecked Sendable {
    // stored state: lets only
    let outcome: Result<Output, any Error>
    let later: Bool
    let executions = Counter()

    init(_ value: Result<Output, any Error>, later: Bool = false) {
        self.outcome = value
        self.later = later
        super.init()
    }

    override func execute() {
        executions.increment()
        if later {
            DispatchQueue.global().async { self.finish(with: self.outcome) }
        } else {
            finish(with: outcome)
        }
    }
}

/// A weak reference that crosses threads.
final class WeakBox<Object: AnyObject & Sendable>: Sendable {
    private let reference = Locked<Weak>(Weak())

    private struct Weak {
        weak var object: Object?
    }

    func set(_ object: Object?) { reference.withLock { $0.object = object } }
    var object: Object? { reference.withLock { $0.object } }
}

/// A box for one value set from another thread.
final class Box<Value: Sendable>: Sendable {
    private let stored: Locked<Value>

    init(_ value: Value) { stored = Locked(value) }

    var value: Value {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}

/// The errors of `operation` as `TestError` ids, sorted.
func testErrorIDs(_ errors: [any Error]) -> [Int] {
    errors.compactMap { ($0 as? TestError)?.id }.sorted()
}
