/// A rate limit's line (S28): its window, and the requests waiting for a permit, in arrival order.
///
/// The first as many requests as the window has permits free are admitted, counting only the
/// requests that stand in line: one still waiting for a category holds no place here (S33), or it
/// could hold a permit's place from a holder's child that the holder, and so it, waits for. Each
/// admitted request takes its permit once its categories admit it too (S19's all or none), and
/// leaves the line. A permit is
/// spent once taken, so a request that took one is never in the line again, and giving back what
/// it holds frees nothing here: only time does. A request withdrawn while it waits (a cancelled
/// operation) took none, and lets the next one move up.
package struct RateLine<Request: Equatable> {
    package private(set) var window: RateWindow
    /// The waiting requests, from `head` on.
    private var waiting: [Request] = []
    private var head = 0

    package init(window: RateWindow) {
        self.window = window
    }

    /// The requests waiting for a permit.
    package var count: Int { waiting.count - head }

    /// The waiting requests in arrival order.
    package var line: ArraySlice<Request> { waiting[head...] }

    package mutating func append(_ request: Request) {
        waiting.append(request)
    }

    /// Whether `request` is among the first requests standing in line (`stands`) that the permits
    /// free at `now` cover; `request` itself stands. Changes nothing; walks the admitted ones and
    /// the requests between them that do not stand.
    package func admits(_ request: Request, at now: UInt64, stands: (Request) -> Bool) -> Bool {
        var free = window.available(at: now, upTo: count)
        var index = head
        while free > 0, index < waiting.count {
            let next = waiting[index]
            if next == request { return true }
            if stands(next) { free -= 1 }
            index += 1
        }
        return false
    }

    /// The requests standing in line (`stands`) that the permits free at `now` cover, in arrival
    /// order.
    package func admitted(at now: UInt64, stands: (Request) -> Bool) -> [Request] {
        var free = window.available(at: now, upTo: count)
        var admitted: [Request] = []
        var index = head
        while free > 0, index < waiting.count {
            if stands(waiting[index]) {
                admitted.append(waiting[index])
                free -= 1
            }
            index += 1
        }
        return admitted
    }

    /// Whether some request waits only for time: more requests wait than permits are free, and a
    /// permit of the window expires later.
    package func waitsForTime(at now: UInt64) -> Bool {
        count > window.available(at: now, upTo: count) && window.oldestExpiry(at: now) != nil
    }

    /// How many requests are ahead of `request` (the line's count if it is not in line).
    package func position(of request: Request) -> Int {
        (waiting[head...].firstIndex { $0 == request } ?? waiting.count) - head
    }

    /// Takes a permit for `request`, admitted at `now` (``admits(_:at:stands:)``), and takes it out
    /// of the line: the permit is spent.
    package mutating func grant(_ request: Request, at now: UInt64) {
        window.take(at: now)
        guard let index = waiting[head...].firstIndex(where: { $0 == request }) else {
            fatalError("RateLine: a permit granted to a request not in line")
        }
        remove(at: index)
    }

    /// Takes out `request`, withdrawn before it took a permit: the requests behind it may now be
    /// admitted (``admitted(at:stands:)``).
    package mutating func withdraw(_ request: Request) {
        guard let index = waiting[head...].firstIndex(where: { $0 == request }) else { return }
        remove(at: index)
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
