import Foundation

/// Counts observer callbacks, so a run that "finished" without telling every observer is caught.
enum Tally {
    private static let counter = Counter()

    static func recordFinish() {
        counter.add()
    }

    static func reset() {
        counter.reset()
    }

    static var finishCount: Int { counter.value }

    /// `Synchronization.Atomic` needs macOS 15: the package supports macOS 13.
    private final class Counter: @unchecked Sendable {
        // `count` is only reached under `lock`
        private let lock = NSLock()
        private var count = 0

        func add() { lock.withLock { count += 1 } }
        func reset() { lock.withLock { count = 0 } }
        var value: Int { lock.withLock { count } }
    }
}
