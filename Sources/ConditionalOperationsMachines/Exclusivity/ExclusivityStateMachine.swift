/// Grants exclusivity categories and rate-limit permits across the whole process, first come, first
/// served, as a value: it reads no clock (each event is given the time, or asks for it), runs no
/// grant and sets no timer; it returns them, and its storage (`ExclusivityController`) performs
/// them outside its lock.
///
/// Each category has a line of requests in arrival order and a limit (S19); a request holds its
/// categories when it is among the first `limit` requests of the line of every one of them.
/// Requests enter all their lines at once, in one event, so any two requests are in the same order
/// in every line they share: no request can wait for another that waits for it, and several
/// categories are acquired all or none. A rate limit (S28) is a line too, which admits as many
/// requests as its window has permits free; a request granted takes a permit of each of its rate
/// limits, which time alone gives back.
///
/// Requests, categories and rate limits are values in tables, named by their index: a request
/// refers to its lines by index, so releasing it hashes no name and costs the same however many
/// requests passed through its lines (``RequestLine``).
package struct ExclusivityStateMachine {
    /// What a request's holder is told once it holds everything it asked for.
    package typealias Grant = @Sendable () -> Void

    /// What one of a request's keys asks for.
    package enum Need: Equatable {
        /// A place in the line `line` (the category's identity), whose limit is `limit`.
        case category(line: String, limit: Limit)
        /// A permit of the rate limit `line`: at most `permits` within any window of `interval`
        /// nanoseconds. A part of the key, found without copying it.
        case rate(line: Substring, permits: Int, interval: UInt64)
    }

    /// Where a category's limit comes from.
    package enum Limit: Equatable {
        /// None given: the one the process gave the category, else 1.
        case unstated
        /// Given by a condition; the first one given to a category stays, another is a misuse
        /// (S13, S19).
        case stated(Int)
        /// The category's own (a category object, a group's scope): no other can be given.
        case own(Int)
    }

    /// A misuse found as a request came in: what was given, and what the process gave first.
    package enum Conflict: Equatable {
        case limit(line: String, given: Int, first: Int)
        case rate(
            line: String, given: (permits: Int, interval: UInt64), first: (permits: Int, interval: UInt64))

        package static func == (lhs: Conflict, rhs: Conflict) -> Bool {
            switch (lhs, rhs) {
            case (.limit(let a, let b, let c), .limit(let d, let e, let f)): a == d && b == e && c == f
            case (.rate(let a, let b, let c), .rate(let d, let e, let f)): a == d && b == e && c == f
            default: false
            }
        }
    }

    /// A timer to set: the rate limit at `rate` frees a permit at `deadline`; tell the machine
    /// then (``timeFreed(rate:now:)``).
    package struct Wake: Equatable {
        package let rate: Int
        package let deadline: UInt64
    }

    /// What an event leaves to do once unlocked: timers to set, then grants to run.
    package struct Effects {
        package fileprivate(set) var wakes: [Wake] = []
        package fileprivate(set) var grants: [Grant] = []
    }

    package enum AcquireAction {
        /// Nothing was done: this event needs the time; ask again with it.
        case readClock
        /// Nothing was done: the request gives a category or a rate limit another limit or rate
        /// than the first one the process gave it.
        case misuse(Conflict)
        /// The request holds everything at once.
        case granted(Effects)
        /// The request waits; its grant runs once it holds everything. `ahead`: the most requests
        /// ahead of it in one of its lines (holders included), as it began to wait.
        case waits(Effects, ahead: Int)
    }

    package enum ReleaseAction {
        /// Nothing was done: this event needs the time; ask again with it.
        case readClock
        /// Given back (or there was nothing to give back): the effects of the requests that thereby
        /// hold everything.
        case released(Effects)
    }

    /// A request's identity: its slot in the table and its serial, so that a request in the slot
    /// later is not taken for the one that left it.
    struct RequestID: Equatable {
        let slot: Int
        let serial: UInt64
    }

    /// A request, or a free slot (serial 0). The tables hold values, not optionals: reading a
    /// field of an optional element copies the whole element, retaining each of its references.
    struct Request {
        var serial: UInt64
        /// Not granted yet, and not withdrawn.
        var isWaiting: Bool
        /// Its categories' slots.
        var categories: [Int]
        /// Its rate limits' indices (S28): it leaves each line as it takes its permit.
        var rates: [Int]
        /// Taken when granted.
        var grant: Grant?
        /// Who asked, for diagnostics, until the request is given back.
        var requester: AnyObject?

        static var free: Request {
            Request(serial: 0, isWaiting: false, categories: [], rates: [], grant: nil, requester: nil)
        }
    }

    /// A category's line, or a free slot (an empty line named "").
    struct Category {
        var line: String
        var requests: RequestLine<RequestID>

        static var free: Category { Category(line: "", requests: RequestLine(limit: 1)) }
    }

    struct Rate {
        let line: String
        var requests: RateLine<RequestID>
        /// Whether a timer is set to wake the line's first waiters: one at a time is enough, since
        /// the window's next expiry only moves later.
        var isWakeScheduled = false
    }

    var requests: [Request] = []
    var freeRequestSlots: [Int] = []
    var nextSerial: UInt64 = 0
    var owners: [ObjectIdentifier: RequestID] = [:]
    var categories: [Category] = []
    var freeCategorySlots: [Int] = []
    var categoryIndex: [String: Int] = [:]
    /// The limits other than 1 the process gave, by line, kept for the process's life: a
    /// category's limit is the first one given (S19).
    var limits: [String: Int] = [:]
    /// The rate limits, kept for the process's life: their windows outlive their lines, and a
    /// name's rate is the first one given (S28).
    var rates: [Rate] = []
    /// By line: a part of the key that first asked, so that a lookup copies nothing.
    var rateIndex: [Substring: Int] = [:]
    /// The requests waiting in rate limits' lines: while there are none, no event needs the time.
    var inRateLines = 0

    package init() {}
}

// MARK: Events

extension ExclusivityStateMachine {
    /// `owner` asks for `needs`, replacing a request it still had. `now` may be `nil` where the
    /// needs have no rate limit: the event then answers ``AcquireAction/readClock`` if it turns out
    /// to need the time.
    package mutating func acquire(
        _ needs: [Need], for owner: ObjectIdentifier, requester: AnyObject?, now: UInt64?,
        grant: @escaping Grant
    ) -> AcquireAction {
        let previous = owners[owner]
        if now == nil, (inRateLines > 0 && previous != nil) || needs.contains(where: \.isRate) {
            return .readClock
        }
        if let conflict = conflict(in: needs) { return .misuse(conflict) }
        let time = now ?? 0  // read only where a rate limit is involved, and then given
        var effects = Effects()
        // The earlier request goes first: it may be the last in a line this one asks for, whose
        // category it then forgets, and this one must find the line anew.
        if let previous {
            owners[owner] = nil
            withdraw(previous, at: time, into: &effects)
        }
        var lines: [Int] = []
        lines.reserveCapacity(needs.count)
        var rateLines: [Int] = []
        for need in needs {
            switch need {
            case .category(let line, let limit):
                let slot = categorySlot(line, limit: limit)
                if !lines.contains(slot) { lines.append(slot) }
            case .rate(let line, let permits, let interval):
                let index = rateIndex(line, permits: permits, interval: interval)
                if !rateLines.contains(index) { rateLines.append(index) }
            }
        }
        let id = newRequest(categories: lines, rates: rateLines, grant: grant, requester: requester)
        owners[owner] = id
        for slot in lines { categories[slot].requests.append(id) }
        for index in rateLines { rates[index].requests.append(id) }
        if !rateLines.isEmpty { inRateLines += 1 }
        let isGranted = take(id, at: time, into: &effects) != nil
        // Granted, its grant asked for what its permits need; waiting, it may wait for time.
        if !isGranted { wakeWhenTimeFrees(rateLines, at: time, into: &effects) }
        guard !isGranted else { return .granted(effects) }
        // It was just put last in each of its lines: those ahead are the rest of each.
        var ahead = 0
        for slot in lines { ahead = max(ahead, categories[slot].requests.count - 1) }
        for index in rateLines { ahead = max(ahead, rates[index].requests.count - 1) }
        return .waits(effects, ahead: ahead)
    }

    /// `owner` gives back what it holds, or withdraws its waiting request.
    package mutating func release(for owner: ObjectIdentifier, now: UInt64?) -> ReleaseAction {
        guard let id = owners[owner] else { return .released(Effects()) }
        if now == nil, inRateLines > 0 { return .readClock }
        owners[owner] = nil
        var effects = Effects()
        withdraw(id, at: now ?? 0, into: &effects)
        return .released(effects)
    }

    /// The timer of the rate limit at `rate` fired: grants the requests the permits free at `now`
    /// admit, first come first served, and asks for the next timer if some still wait for time.
    package mutating func timeFreed(rate: Int, now: UInt64) -> Effects {
        var effects = Effects()
        rates[rate].isWakeScheduled = false
        for next in rates[rate].requests.admitted(at: now, stands: { stands($0) }) {
            if let grant = take(next, at: now, into: &effects) { effects.grants.append(grant) }
        }
        wakeWhenTimeFrees([rate], at: now, into: &effects)
        return effects
    }
}

// MARK: Steps

extension ExclusivityStateMachine {
    /// The first limit or rate that `needs` contradicts, if any. Changes nothing.
    private func conflict(in needs: [Need]) -> Conflict? {
        for need in needs {
            switch need {
            case .category(let line, .stated(let given)):
                let first = limits[line] ?? categoryIndex[line].map { categories[$0].requests.limit }
                if let first, first != given { return .limit(line: line, given: given, first: first) }
            case .rate(let line, let permits, let interval):
                guard let index = rateIndex[line] else { continue }
                let window = rates[index].requests.window
                if window.permits != permits || window.interval != max(1, interval) {
                    return .rate(
                        line: rates[index].line, given: (permits, interval),
                        first: (window.permits, window.interval))
                }
            case .category(_, .unstated), .category(_, .own):
                continue
            }
        }
        return nil
    }

    /// The slot of the category `line`, made with its limit if nobody holds or waits for it.
    private mutating func categorySlot(_ line: String, limit: Limit) -> Int {
        if let slot = categoryIndex[line] { return slot }
        let count: Int
        switch limit {
        case .unstated: count = limits[line] ?? 1
        case .stated(let given):
            count = given
            if given > 1 { limits[line] = given }
        case .own(let given): count = given
        }
        let category = Category(line: line, requests: RequestLine(limit: count))
        let slot: Int
        if let free = freeCategorySlots.popLast() {
            categories[free] = category
            slot = free
        } else {
            categories.append(category)
            slot = categories.count - 1
        }
        categoryIndex[line] = slot
        return slot
    }

    /// The index of the rate limit `line`, made with its rate the first time it is asked for.
    private mutating func rateIndex(_ line: Substring, permits: Int, interval: UInt64) -> Int {
        if let index = rateIndex[line] { return index }
        rates.append(
            Rate(
                line: String(line),
                requests: RateLine(window: RateWindow(permits: permits, interval: interval))))
        rateIndex[line] = rates.count - 1
        return rates.count - 1
    }

    private mutating func newRequest(
        categories: [Int], rates: [Int], grant: @escaping Grant, requester: AnyObject?
    ) -> RequestID {
        nextSerial += 1
        let request = Request(
            serial: nextSerial, isWaiting: true, categories: categories, rates: rates, grant: grant,
            requester: requester)
        if let slot = freeRequestSlots.popLast() {
            requests[slot] = request
            return RequestID(slot: slot, serial: nextSerial)
        }
        requests.append(request)
        return RequestID(slot: requests.count - 1, serial: nextSerial)
    }

    /// Whether `id` left: given back or withdrawn.
    func isReleased(_ id: RequestID) -> Bool {
        requests[id.slot].serial != id.serial
    }

    /// Whether every category of `id` admits it: only then does it hold a place in its rate
    /// limits' lines (S33, ``RateLine``).
    private func stands(_ id: RequestID) -> Bool {
        requests[id.slot].categories.allSatisfy { categories[$0].requests.admits(id) }
    }

    /// Takes `id`'s grant if it is now within the limit of every one of its lines, and then a
    /// permit of each of its rate limits at `now`. A permit taken may leave the requests behind
    /// waiting for time: their timer is then asked for.
    private mutating func take(_ id: RequestID, at now: UInt64, into effects: inout Effects) -> Grant? {
        // Fields are read in place: a copy of the request would retain each of them.
        guard requests[id.slot].serial == id.serial, requests[id.slot].isWaiting, stands(id) else {
            return nil
        }
        if !requests[id.slot].rates.isEmpty {
            let indices = requests[id.slot].rates
            guard indices.allSatisfy({ rates[$0].requests.admits(id, at: now, stands: { stands($0) }) })
            else {
                return nil
            }
            for index in indices { rates[index].requests.grant(id, at: now) }
            inRateLines -= 1
            wakeWhenTimeFrees(indices, at: now, into: &effects)
        }
        requests[id.slot].isWaiting = false
        return requests[id.slot].grant.take()
    }

    /// Lets `id` go and grants the requests that thereby hold everything; forgets the categories
    /// nobody is left in.
    private mutating func withdraw(_ id: RequestID, at now: UInt64, into effects: inout Effects) {
        guard requests[id.slot].serial == id.serial else { return }
        var request = Request.free
        swap(&request, &requests[id.slot])
        freeRequestSlots.append(id.slot)
        // Still waiting, it took no permit, and leaves its rate limits' lines (S28): the ones
        // behind it may now be admitted.
        if request.isWaiting, !request.rates.isEmpty {
            inRateLines -= 1
            for index in request.rates {
                rates[index].requests.withdraw(id)
                for next in rates[index].requests.admitted(at: now, stands: { stands($0) }) {
                    if let grant = take(next, at: now, into: &effects) { effects.grants.append(grant) }
                }
            }
        }
        for slot in request.categories {
            // Only a request that came within a limit may now hold all its categories.
            if let next = remove(id, fromCategory: slot), let grant = take(next, at: now, into: &effects) {
                effects.grants.append(grant)
            }
            if categories[slot].requests.isEmpty {
                categoryIndex[categories[slot].line] = nil
                categories[slot] = .free
                freeCategorySlots.append(slot)
            }
        }
    }

    /// Takes `id`, released, out of the category at `slot`; returns the request that came within
    /// the limit. Its own function so that the table it reads is let go of before the caller
    /// writes to it.
    private mutating func remove(_ id: RequestID, fromCategory slot: Int) -> RequestID? {
        let table = requests
        return categories[slot].requests.remove(id) { table[$0.slot].serial != $0.serial }
    }

    /// Asks for a timer for each rate limit of `indices` whose waiters now wait for time, unless
    /// one is set. `now` is the time the event granted at: a waiter not waiting for time then is
    /// one the event's grants reached, or one waiting for a category.
    private mutating func wakeWhenTimeFrees(_ indices: [Int], at now: UInt64, into effects: inout Effects) {
        for index in indices
        where !rates[index].isWakeScheduled && rates[index].requests.waitsForTime(at: now) {
            guard let deadline = rates[index].requests.window.oldestExpiry(at: now) else { continue }
            rates[index].isWakeScheduled = true
            effects.wakes.append(Wake(rate: index, deadline: deadline))
        }
    }
}

extension ExclusivityStateMachine.Need {
    /// Whether it asks for a rate limit's permit: an event with one needs the time.
    package var isRate: Bool {
        if case .rate = self { return true }
        return false
    }
}
