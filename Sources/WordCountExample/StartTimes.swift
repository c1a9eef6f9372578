import Dispatch

/// When operations started, to show what a `RateLimit` promises: at most `permits` of them start
/// within any window of its interval.
final class StartTimes: Sendable {
    /// When the operations were added: no permit was taken before.
    let origin = DispatchTime.now()
    private let starts = Protected<[DispatchTime]>([])

    func record() {
        let now = DispatchTime.now()
        starts.withLock { $0.append(now) }
    }

    var count: Int { starts.withLock { $0.count } }

    /// Whether the starts kept to `permits` per `interval`: the first `permits` within the first
    /// window after ``origin`` at the earliest, the next ones in the second at the earliest, and so
    /// on. (A start comes a moment after its permit, so this is what starts can show however busy
    /// the machine is.)
    func keep(permits: Int, per interval: Duration) -> Bool {
        let window =
            UInt64(interval.components.seconds) * 1_000_000_000
            + UInt64(interval.components.attoseconds / 1_000_000_000)
        let sorted = starts.withLock { $0 }.map(\.uptimeNanoseconds).sorted()
        return sorted.enumerated().allSatisfy { index, start in
            start >= origin.uptimeNanoseconds + UInt64(index / permits) * window
        }
    }

    /// Seconds from ``origin`` to the last start.
    var span: Double {
        let last = starts.withLock { $0.max() } ?? origin
        return Double(last.uptimeNanoseconds - origin.uptimeNanoseconds) / 1e9
    }
}
