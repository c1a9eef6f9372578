/// A rate limit's sliding window (S28): when its last permits were taken, and how many it has
/// free at a given time. It reads no clock: every question passes the time in, so that the
/// window's arithmetic is tested with made-up times.
///
/// A permit taken at `t` counts until `t + interval`: at no time are more than `permits` permits
/// taken within the `interval` before it, which is "at most `permits` in any window of `interval`".
/// Times are nanoseconds on one monotonic clock.
package struct RateWindow: Sendable {
    /// How many permits any window of `interval` holds.
    package let permits: Int
    /// The window's length, in nanoseconds (at least 1).
    package let interval: UInt64
    /// The times of the permits taken, oldest first, from `head` on; those older than a window are
    /// dropped as permits are taken, so at most `permits` are kept.
    private var taken: [UInt64] = []
    private var head = 0

    package init(permits: Int, interval: UInt64) {
        self.permits = permits
        self.interval = max(1, interval)
    }

    /// How many permits may be taken at `now`.
    package func available(at now: UInt64) -> Int {
        permits - inWindow(at: now)
    }

    /// How many permits may be taken at `now`, but no more than `cap`: what a line of `cap`
    /// requests asks. Free of any search while the permits kept leave `cap` free anyway, as
    /// they do under a rate never reached.
    package func available(at now: UInt64, upTo cap: Int) -> Int {
        guard permits - (taken.count - head) < cap else { return max(0, cap) }
        return max(0, min(cap, available(at: now)))
    }

    /// The permits taken within the window ending at `now`: those whose time plus `interval` is
    /// still ahead. The kept times are in order, so the expired ones are a prefix.
    package func inWindow(at now: UInt64) -> Int {
        taken.count - firstInWindow(at: now)
    }

    /// When the next permit is free: `now` if one is, otherwise when the oldest permit of the
    /// window expires.
    package func nextPermit(at now: UInt64) -> UInt64 {
        available(at: now) > 0 ? now : oldestExpiry(at: now) ?? now
    }

    /// When the oldest permit of the window ending at `now` expires, freeing a permit; `nil` when
    /// the window holds none (time frees nothing more).
    package func oldestExpiry(at now: UInt64) -> UInt64? {
        let first = firstInWindow(at: now)
        return first < taken.count ? expires(taken[first]) : nil
    }

    /// Takes a permit at `now`; one must be free (``available(at:)``). A time earlier than the
    /// last one taken (two threads read the clock, the later one took the lock first) counts as
    /// the last one, so the times stay in order.
    package mutating func take(at now: UInt64) {
        // The expired ones are a prefix: each is passed over once, here, so a permit costs the
        // same however many were taken before it.
        while head < taken.count, expires(taken[head]) <= now { head += 1 }
        guard taken.count - head < permits else {
            fatalError("RateWindow: a permit taken at \(now) with none free (\(permits) per \(interval) ns)")
        }
        taken.dropConsumedPrefix(head: &head)
        taken.append(max(now, taken.last ?? 0))
    }

    /// The index of the oldest permit still in the window at `now` (`taken.count` if none is): a
    /// binary search, so a question costs the same however many permits expired since the last one
    /// was taken.
    private func firstInWindow(at now: UInt64) -> Int {
        var low = head
        var high = taken.count
        while low < high {
            let middle = (low + high) / 2
            if expires(taken[middle]) <= now { low = middle + 1 } else { high = middle }
        }
        return low
    }

    private func expires(_ time: UInt64) -> UInt64 {
        let (sum, overflow) = time.addingReportingOverflow(interval)
        return overflow ? .max : sum
    }
}
