/// A request in a ``RequestLine``: withdrawn requests are flagged, not searched for.
protocol LineRequest: AnyObject {
    /// Set once the request was given back or withdrawn, before the line is told.
    var isReleased: Bool { get }
}

/// One category's requests in arrival order, split where its limit falls: the first `limit`
/// requests still in line (those that hold the category or may take it, ``admitted``), then the
/// ones waiting behind them.
///
/// Every step costs the same however many requests passed through the line (S7, S19): a request
/// leaving the front is found among at most `limit` admitted ones, and the next in line moves up;
/// one withdrawn while it waits stays as a gap, skipped once it reaches the front, and the gaps are
/// swept out once they outnumber the requests waiting. Nothing but ``line`` (diagnostics) walks the
/// waiting ones.
struct RequestLine<Request: LineRequest> {
    /// How many requests hold the category at once (S19).
    let limit: Int
    /// The first `limit` requests still in line, in arrival order.
    private(set) var admitted: [Request] = []
    /// The requests behind ``admitted``, in arrival order, gaps (released ones) included, from `head` on.
    private var waiting: [Request] = []
    private var head = 0
    /// Released requests in `waiting[head...]`.
    private var gaps = 0
    /// Entries visited so far, for tests: a few per request, however long the line grew.
    private(set) var visits = 0

    init(limit: Int) {
        self.limit = limit
    }

    /// The requests still in line.
    var count: Int { admitted.count + waiting.count - head - gaps }

    /// Nobody holds the category or waits for it.
    var isEmpty: Bool { admitted.isEmpty }

    /// Entries kept, gaps included, for tests.
    var stored: Int { admitted.count + waiting.count - head }

    /// The requests still in line, in arrival order (diagnostics: it walks them all).
    var line: [Request] { admitted + waiting[head...].filter { !$0.isReleased } }

    mutating func append(_ request: Request) {
        visits += 1
        // Room among the admitted means nobody waits (``remove(_:)`` moves them up).
        if admitted.count < limit { admitted.append(request) } else { waiting.append(request) }
    }

    /// Whether `request` is among the first `limit` in line. Changes nothing.
    func admits(_ request: Request) -> Bool {
        admitted.contains { $0 === request }
    }

    /// Takes out `request`, released already; returns the request that thereby came within the
    /// limit, if any: one leaving the admitted frees one place, which the next waiting one takes.
    mutating func remove(_ request: Request) -> Request? {
        guard let index = admitted.firstIndex(where: { $0 === request }) else {
            // Waiting: a gap, swept out with the others once they outnumber the requests.
            gaps += 1
            if gaps > 32, gaps * 2 > waiting.count - head { sweep() }
            return nil
        }
        visits += index + 1
        admitted.remove(at: index)
        guard let next = popWaiting() else { return nil }
        admitted.append(next)
        return next
    }

    /// The first waiting request, gaps dropped on the way.
    private mutating func popWaiting() -> Request? {
        while head < waiting.count {
            let next = waiting[head]
            visits += 1
            head += 1
            waiting.dropConsumedPrefix(head: &head)
            guard next.isReleased else { return next }
            gaps -= 1
        }
        return nil
    }

    private mutating func sweep() {
        visits += waiting.count - head
        waiting = waiting[head...].filter { !$0.isReleased }
        head = 0
        gaps = 0
    }
}
