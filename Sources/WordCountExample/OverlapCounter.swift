/// Counts how many operations are inside a stretch of code at the same time, to show what a
/// `MutuallyExclusive` category promises: operations sharing it never execute at once.
final class OverlapCounter: Sendable {
    private struct Counts {
        var inside = 0
        var entered = 0
        var mostAtOnce = 0
    }

    // A lock of its own: if the promise were broken, two operations would be here at once.
    private let counts = Protected(Counts())

    func enter() {
        counts.withLock {
            $0.inside += 1
            $0.entered += 1
            $0.mostAtOnce = max($0.mostAtOnce, $0.inside)
        }
    }

    func leave() {
        counts.withLock { $0.inside -= 1 }
    }

    /// How many times the stretch was entered.
    var entered: Int { counts.withLock { $0.entered } }

    /// The most operations that were inside at the same time.
    var mostAtOnce: Int { counts.withLock { $0.mostAtOnce } }
}
