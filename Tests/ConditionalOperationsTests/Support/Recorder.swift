@testable import ConditionalOperations

/// A thread-safe list of events, for checking order and counts.
final class Recorder: Sendable {
    private let events = Locked<[String]>([])

    func record(_ event: String) {
        events.withLock { $0.append(event) }
    }

    var all: [String] { events.withLock { $0 } }

    func count(_ event: String) -> Int { all.filter { $0 == event }.count }
}

/// A thread-safe counter.
final class Counter: Sendable {
    private let value = Locked(0)

    @discardableResult
    func increment() -> Int {
        value.withLock {
            $0 += 1
            return $0
        }
    }

    var current: Int { value.withLock { $0 } }
}
