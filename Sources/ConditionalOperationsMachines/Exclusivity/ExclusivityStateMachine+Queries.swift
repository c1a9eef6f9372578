/// What diagnostics and tests ask of the exclusivity machine. Nothing here changes it.
extension ExclusivityStateMachine {
    /// Where a request stands in one of its lines.
    package struct Wait {
        /// The line: a category's identity, or a rate limit's.
        package let line: String
        /// Who holds the category, when the request is not among those it admits.
        package let holder: AnyObject?
        /// How many requests are ahead of it.
        package let ahead: Int
        /// For a rate limit the request waits for: its rate, and when its next permit comes.
        package let rate: RateWait?
    }

    package struct RateWait {
        package let permits: Int
        /// Nanoseconds.
        package let interval: UInt64
        /// Nanoseconds from now.
        package let nextPermit: UInt64
    }

    /// Where `owner`'s request stands in each of its lines at `now`: empty when it has none. Rate
    /// limits are listed only while it waits (a permit taken is spent).
    package func waits(of owner: ObjectIdentifier, now: UInt64) -> [Wait] {
        guard let id = owners[owner] else { return [] }
        let request = requests[id.slot]
        var waits = request.categories.map { slot in
            let category = categories[slot]
            let line = category.requests.line { isReleased($0) }
            let holder =
                category.requests.admits(id) ? nil : line.first.flatMap { requests[$0.slot].requester }
            return Wait(
                line: category.line, holder: holder, ahead: line.firstIndex(of: id) ?? line.count, rate: nil)
        }
        guard request.isWaiting else { return waits }
        for index in request.rates {
            let line = rates[index].requests
            let window = line.window
            let wait = RateWait(
                permits: window.permits, interval: window.interval,
                nextPermit: window.nextPermit(at: now) - now)
            waits.append(Wait(line: rates[index].line, holder: nil, ahead: line.position(of: id), rate: wait))
        }
        return waits
    }

    /// The limit other than 1 the process gave the category `line`, else 1.
    package func limit(of line: String) -> Int {
        limits[line] ?? 1
    }

    /// The requests holding or waiting for the category `line`.
    package func requestCount(inCategory line: String) -> Int {
        categoryIndex[line].map { categories[$0].requests.count } ?? 0
    }

    /// The entries the category `line` keeps (withdrawn ones not yet swept out included), and the
    /// entries its steps visited so far.
    package func work(inCategory line: String) -> (stored: Int, visited: Int) {
        categoryIndex[line].map { (categories[$0].requests.stored, categories[$0].requests.visits) } ?? (
            0, 0
        )
    }

    /// Whether the machine keeps a line for the category `line`: one nobody holds or waits for any
    /// more is forgotten, so that unique names don't accumulate.
    package func isTracking(category line: String) -> Bool {
        categoryIndex[line] != nil
    }

    /// The requests waiting for a permit of the rate limit `line`.
    package func requestCount(inRateLimit line: String) -> Int {
        rateIndex[Substring(line)].map { rates[$0].requests.count } ?? 0
    }
}
