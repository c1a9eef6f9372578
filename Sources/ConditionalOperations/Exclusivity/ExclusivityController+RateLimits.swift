/// Rate limits (S28): lines of the controller that admit as many requests as their window has
/// permits free. A timer wakes the first waiters once time frees a permit; it holds no thread.
extension ExclusivityController {
    /// A rate limit's line and window. Reached only under the controller's lock.
    final class RateBucket {
        /// What diagnostics show: the name the rate limit was given.
        let name: String
        /// Its key among the controller's rate limits, for its timer.
        let key: String
        var line: RateLine<Request>
        /// Whether a timer is set to wake the line's first waiters: one at a time is enough, since
        /// the window's next expiry only moves later.
        var isWakeScheduled = false

        init(name: String, key: String, window: RateWindow) {
            self.name = name
            self.key = key
            line = RateLine(window: window)
        }

        /// Where `request`, waiting in this line, stands, for diagnostics.
        func wait(of request: Request, at now: UInt64) -> OperationDiagnosis.CategoryWait {
            let window = line.window
            let rate = OperationDiagnosis.RateLimitWait(
                permits: window.permits, interval: .nanoseconds(Int64(clamping: window.interval)),
                nextPermit: Double(window.nextPermit(at: now) - now) / 1e9)
            return OperationDiagnosis.CategoryWait(
                category: name, holder: nil, ahead: line.position(of: request), rateLimit: rate)
        }
    }

    /// A timer to set, outside the lock: when the rate limit `key` frees its next permit.
    struct RateWake {
        let key: String
        let deadline: UInt64
    }

    /// Gives the rate limit `key` (shown as `name`) its rate, if it has none yet. Returns the
    /// rate it had if that one differs (the first rate given stays, S28), else `nil`.
    func setRate(_ window: RateWindow, forKey key: String, name: String) -> RateWindow? {
        state.withLock { state -> RateWindow? in
            guard let bucket = state.rates[key] else {
                state.rates[key] = RateBucket(name: name, key: key, window: window)
                return nil
            }
            let earlier = bucket.line.window
            return earlier.permits == window.permits && earlier.interval == window.interval ? nil : earlier
        }
    }

    /// Sets the timers `wakes` ask for.
    func schedule(_ wakes: [RateWake]) {
        for wake in wakes {
            clock.wake(at: wake.deadline) { self.wakeWaiters(ofRateLimit: wake.key) }
        }
    }

    /// A rate limit's timer fired: grants the requests the permits now free admit, first come
    /// first served, and sets the next timer if some still wait for time.
    func wakeWaiters(ofRateLimit key: String) {
        let (grants, wakes) = state.withLock { state -> ([Grant], [RateWake]) in
            guard let bucket = state.rates[key] else { return ([], []) }
            bucket.isWakeScheduled = false
            var time = ClockReading(state.clock)
            let grants = bucket.line.admitted(at: time.now, stands: \.standsInRateLines).compactMap {
                state.grant($0, time: &time)
            }
            state.wakeWhenTimeFrees([bucket], time: &time)
            return (grants, state.takeWakes())
        }
        schedule(wakes)
        for grant in grants { grant() }
    }

    /// The requests waiting for a permit of the rate limit `key`, for tests.
    func rateLineCount(forKey key: String) -> Int {
        state.withLock { $0.rates[key]?.line.count ?? 0 }
    }
}

extension ExclusivityController.State {
    typealias Request = ExclusivityController.Request
    typealias RateBucket = ExclusivityController.RateBucket

    /// The rate limit whose key is `key`, if `key` is one the process gave a rate.
    func rate(forKey key: String) -> RateBucket? {
        RateLimit.isKey(key) ? rates[key] : nil
    }

    /// Takes `request`, withdrawn before its permits, out of its rate limits' lines; returns the
    /// grants of the requests that thereby came within the permits free and now hold everything
    /// (those it stood ahead of, and any a withdrawn request's categories held back).
    mutating func withdrawFromRates(_ request: Request, time: inout ClockReading) -> [ExclusivityController
        .Grant]
    {
        var grants: [ExclusivityController.Grant] = []
        for rate in request.rates {
            rate.line.withdraw(request)
            for next in rate.line.admitted(at: time.now, stands: \.standsInRateLines) {
                if let grant = self.grant(next, time: &time) { grants.append(grant) }
            }
        }
        return grants
    }

    /// Takes `request`'s grant if it now holds every category and a permit of every rate limit
    /// (``ExclusivityController/Request/takeGrantIfFirst(time:)``). A permit taken may leave the
    /// ones behind waiting for time: their timer is then asked for.
    mutating func grant(_ request: Request, time: inout ClockReading) -> ExclusivityController.Grant? {
        let grant = request.takeGrantIfFirst(time: &time)
        if grant != nil, !request.rates.isEmpty { wakeWhenTimeFrees(request.rates, time: &time) }
        return grant
    }

    /// Asks for a timer for each of `buckets` whose waiters now wait for time, unless one is set.
    /// `time` is the one the section granted at: a waiter not waiting for time then is one the
    /// section's grants reached, or one waiting for a category.
    mutating func wakeWhenTimeFrees(_ buckets: [RateBucket], time: inout ClockReading) {
        let now = time.now
        for bucket in buckets where !bucket.isWakeScheduled && bucket.line.waitsForTime(at: now) {
            guard let deadline = bucket.line.window.oldestExpiry(at: now) else { continue }
            bucket.isWakeScheduled = true
            wakes.append(ExclusivityController.RateWake(key: bucket.key, deadline: deadline))
        }
    }

    /// The timers asked for so far, which the controller sets once it unlocked.
    mutating func takeWakes() -> [ExclusivityController.RateWake] {
        guard !wakes.isEmpty else { return [] }
        defer { wakes = [] }
        return wakes
    }
}
