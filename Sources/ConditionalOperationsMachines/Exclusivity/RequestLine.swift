/// One category's requests in arrival order, split where its limit falls: the first `limit`
/// requests still in line (those that hold the category or may take it, ``admitted``), then the
/// ones waiting behind them.
///
/// Every step costs the same however many requests passed through the line (S7, S19): a request
/// leaving the front is found among at most `limit` admitted ones, and the next in line moves up;
/// one withdrawn while it waits stays as a gap, skipped once it reaches the front, and the gaps are
/// swept out once they outnumber the requests waiting. Nothing but ``line(isReleased:)``
/// (diagnostics) walks the waiting ones. The line holds identities, not requests: whether one was
/// withdrawn is the caller's to say (`isReleased`), so that a withdrawn request is never searched
/// for.
package struct RequestLine<ID: Equatable> {
    /// How many requests hold the category at once (S19).
    package let limit: Int
    /// The first `limit` requests still in line, in arrival order.
    package private(set) var admitted: [ID] = []
    /// The requests behind ``admitted``, in arrival order, gaps (released ones) included, from `head` on.
    private var waiting: [ID] = []
    private var head = 0
    /// Released requests in `waiting[head...]`.
    private var gaps = 0
    /// Entries visited so far, for tests: a few per request, however long the line grew.
    package private(set) var visits = 0

    package init(limit: Int) {
        self.limit = limit
    }

    /// The requests still in line.
    package var count: Int { admitted.count + waiting.count - head - gaps }

    /// Nobody holds the category or waits for it.
    package var isEmpty: Bool { admitted.isEmpty }

    /// Entries kept, gaps included, for tests.
    package var stored: Int { admitted.count + waiting.count - head }

    /// The requests still in line, in arrival order (diagnostics: it walks them all).
    package func line(isReleased: (ID) -> Bool) -> [ID] {
        admitted + waiting[head...].filter { !isReleased($0) }
    }

    package mutating func append(_ request: ID) {
        visits += 1
        // Room among the admitted means nobody waits (``remove(_:isReleased:)`` moves them up).
        if admitted.count < limit { admitted.append(request) } else { waiting.append(request) }
    }

    /// Whether `request` is among the first `limit` in line. Changes nothing.
    package func admits(_ request: ID) -> Bool {
        admitted.contains(request)
    }

    /// Takes out `request`, released already (`isReleased` says so of it and of every other
    /// request withdrawn); returns the request that thereby came within the limit, if any: one
    /// leaving the admitted frees one place, which the next waiting one takes.
    package mutating func remove(_ request: ID, isReleased: (ID) -> Bool) -> ID? {
        guard let index = admitted.firstIndex(of: request) else {
            // Waiting: a gap, swept out with the others once they outnumber the requests.
            gaps += 1
            if gaps > 32, gaps * 2 > waiting.count - head { sweep(isReleased: isReleased) }
            return nil
        }
        visits += index + 1
        admitted.remove(at: index)
        guard let next = popWaiting(isReleased: isReleased) else { return nil }
        admitted.append(next)
        return next
    }

    /// The first waiting request, gaps dropped on the way.
    private mutating func popWaiting(isReleased: (ID) -> Bool) -> ID? {
        while head < waiting.count {
            let next = waiting[head]
            visits += 1
            head += 1
            waiting.dropConsumedPrefix(head: &head)
            guard isReleased(next) else { return next }
            gaps -= 1
        }
        return nil
    }

    private mutating func sweep(isReleased: (ID) -> Bool) {
        visits += waiting.count - head
        waiting = waiting[head...].filter { !isReleased($0) }
        head = 0
        gaps = 0
    }
}
