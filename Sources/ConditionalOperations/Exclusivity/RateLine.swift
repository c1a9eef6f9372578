/// A rate limit's line (S28): its window, and the requests waiting for a permit, in arrival order.
///
/// The first as many requests as the window has permits free are admitted: each takes its permit
/// once its other categories admit it too (S19's all or none), and leaves the line. A permit is
/// spent once taken, so a request that took one is never in the line again, and giving back what
/// it holds frees nothing here: only time does. A request withdrawn while it waits (a cancelled
/// operation) took none, and lets the next one move up.
struct RateLine<Request: AnyObject> {
    private(set) var window: RateWindow
    /// The waiting requests, from `head` on.
    private var waiting: [Request] = []
    private var head = 0

    init(window: RateWindow) {
        self.window = window
    }

    /// The requests waiting for a permit.
    var count: Int { waiting.count - head }

    /// The waiting requests in arrival order.
    var line: ArraySlice<Request> { waiting[head...] }

    mutating func append(_ request: Request) {
        waiting.append(request)
    }

    /// Whether `request` is among the first requests in line that the permits free at `now` cover.
    /// Changes nothing; walks only the admitted ones.
    func admits(_ request: Request, at now: UInt64) -> Bool {
        let end = head + window.available(at: now, upTo: count)
        var index = head
        while index < end {
            if waiting[index] === request { return true }
            index += 1
        }
        return false
    }

    /// The requests the permits free at `now` cover, in arrival order.
    func admitted(at now: UInt64) -> ArraySlice<Request> {
        waiting[head..<(head + window.available(at: now, upTo: count))]
    }

    /// Whether some request waits only for time: more requests wait than permits are free, and a
    /// permit of the window expires later.
    func waitsForTime(at now: UInt64) -> Bool {
        count > window.available(at: now, upTo: count) && window.oldestExpiry(at: now) != nil
    }

    /// How many requests are ahead of `request` (the line's count if it is not in line).
    func position(of request: Request) -> Int {
        (waiting[head...].firstIndex { $0 === request } ?? waiting.count) - head
    }

    /// Takes a permit for `request`, admitted at `now` (``admits(_:at:)``), and takes it out of the
    /// line: the permit is spent.
    mutating func grant(_ request: Request, at now: UInt64) {
        window.take(at: now)
        guard let index = waiting[head...].firstIndex(where: { $0 === request }) else {
            fatalError("RateLine: a permit granted to a request not in line")
        }
        remove(at: index)
    }

    /// Takes out `request`, withdrawn before it took a permit; returns the request that thereby
    /// came within the permits free at `now`, if any.
    mutating func withdraw(_ request: Request, at now: UInt64) -> Request? {
        guard let index = waiting[head...].firstIndex(where: { $0 === request }) else { return nil }
        let available = window.available(at: now, upTo: count)
        remove(at: index)
        // Only an admitted request leaving lets another one in: the first one left out.
        guard index - head < available, available <= count else { return nil }
        return waiting[head + available - 1]
    }

    private mutating func remove(at index: Int) {
        guard index == head else {
            waiting.remove(at: index)
            return
        }
        head += 1
        waiting.dropConsumedPrefix(head: &head)
    }
}
