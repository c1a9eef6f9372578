/// Grants mutually exclusive categories across the whole process, first come, first served.
///
/// Each category has a line of requests in arrival order and a limit, 1 unless the process gave it
/// another (S19); a request holds its categories when it is among the first `limit` requests of
/// the line of every one of them. Requests enter all their queues at once, under one
/// lock, so any two requests are in the same order in every queue they share: no request can wait
/// for another that waits for it, and several categories are acquired all or none.
///
/// A requester (an operation) has one request at a time. A request refers to its categories'
/// queues directly, so releasing it hashes no category name, and costs the same however many
/// requests passed through its lines (``RequestLine``). Releasing is idempotent and also withdraws
/// a request still waiting.
///
/// A rate limit (S28) is taken the same way, in the same request: its line admits as many requests
/// as its window has permits free (``RateLine``), and a request granted takes a permit of each of
/// its rate limits, which time alone gives back.
final class ExclusivityController: Sendable {
    static let shared = ExclusivityController()

    /// The time rate limits read and the timer waking their waiters.
    let clock: any RateClock

    init(clock: any RateClock = MonotonicRateClock()) {
        self.clock = clock
        state = Locked(State(clock: clock))
    }

    typealias Grant = @Sendable () -> Void

    /// One requester's request, in the queue of each of its categories and rate limits. Reached
    /// only under the controller's lock.
    final class Request: LineRequest {
        fileprivate let categories: [Category]
        /// Its rate limits' lines (S28): it leaves each as it takes its permit.
        let rates: [RateBucket]
        /// Taken (set to `nil`) when granted.
        var grant: Grant?
        var isReleased = false
        /// Who asked, for diagnostics (``waits(for:)``), until the request is given back. Strong
        /// (a weak reference would cost every exclusive operation a side table) and let go of when
        /// released: by then the operation is the caller releasing it, so it is never the last
        /// reference, and a released request waiting to leave its queues keeps nobody alive.
        var requester: ConditionalOperation?

        fileprivate init(
            categories: [Category], rates: [RateBucket], grant: @escaping Grant,
            requester: ConditionalOperation?
        ) {
            self.categories = categories
            self.rates = rates
            self.grant = grant
            self.requester = requester
        }

        /// Takes the grant if the request is now within the limit of every one of its lines, and
        /// then a permit of each of its rate limits at the section's `time`.
        func takeGrantIfFirst(time: inout ClockReading) -> Grant? {
            guard let grant, standsInRateLines else { return nil }
            if !rates.isEmpty {
                let now = time.now
                guard rates.allSatisfy({ $0.line.admits(self, at: now, stands: \.standsInRateLines) }) else {
                    return nil
                }
                for rate in rates { rate.line.grant(self, at: now) }
            }
            self.grant = nil
            return grant
        }

        /// Whether every category of the request admits it: only then does it hold a place in its
        /// rate limits' lines (S33, ``RateLine``).
        var standsInRateLines: Bool { categories.allSatisfy { $0.admits(self) } }

        /// Whether the request waits still: it has not been granted, and was not withdrawn.
        var isWaiting: Bool { grant != nil && !isReleased }
    }

    /// A category's requests in arrival order. Reached only under the controller's lock.
    fileprivate final class Category {
        let name: String
        /// Its requests, within its limit (S19) and behind it.
        private(set) var requests: RequestLine<Request>

        init(name: String, limit: Int) {
            self.name = name
            requests = RequestLine(limit: limit)
        }

        /// Whether `request` is within the limit of this line. Changes nothing (a caller may be
        /// going through this line), and allocates nothing: it is asked on every grant.
        func admits(_ request: Request) -> Bool {
            requests.admits(request)
        }

        var waitingCount: Int { requests.count }

        /// The requests still in line, in arrival order.
        var line: [Request] { requests.line }

        func append(_ request: Request) {
            requests.append(request)
        }

        /// Takes out a released request; returns the one that thereby came within the limit.
        func remove(_ request: Request) -> Request? {
            requests.remove(request)
        }
    }

    struct State {
        let clock: any RateClock
        fileprivate var categories: [String: Category] = [:]
        var requests: [ObjectIdentifier: Request] = [:]
        /// The limits other than 1 the process gave, by category name (unscoped), kept for the
        /// process's life: a category's limit is the first one given (S19).
        var limits: [String: Int] = [:]
        /// The rate limits the process gave, by key, kept for the process's life: their windows
        /// outlive their lines, and a name's rate is the first one given (S28).
        var rates: [String: RateBucket] = [:]
        /// The timers the section under the lock found needed, set by the controller after it.
        var wakes: [RateWake] = []

        /// Marks `request` released and returns the grants of the requests that thereby became
        /// first in all their queues; forgets the categories nobody is left in.
        mutating func withdraw(_ request: Request, time: inout ClockReading) -> [Grant] {
            // Still waiting: it took no permit, and leaves its rate limits' lines (S28).
            let tookPermits = request.grant == nil
            request.isReleased = true
            request.requester = nil
            var grants = tookPermits ? [] : withdrawFromRates(request, time: &time)
            for category in request.categories {
                // Only a request that came within a limit may now hold all its categories.
                if let next = category.remove(request), let grant = self.grant(next, time: &time) {
                    grants.append(grant)
                }
                // Nobody left: forget it (unless a later request already put a fresh one there).
                if category.requests.isEmpty, categories[category.name] === category {
                    categories[category.name] = nil
                }
            }
            return grants
        }

        fileprivate mutating func category(named name: String) -> Category {
            if let category = categories[name] { return category }
            // A group's scope is one unit of the category, its children take turns under it (S19);
            // an `ExclusivityCategory` carries its own limit (S26).
            let limit =
                ExclusivityController.isScoped(name)
                ? 1 : ExclusivityCategory.limit(ofKey: name) ?? limits[name] ?? 1
            let category = Category(name: name, limit: limit)
            categories[name] = category
            return category
        }
    }

    let state: Locked<State>

    /// Gives `category` its limit (S19): the first limit the process gives a category stays; a
    /// different one later, or a limit below 1, is a misuse (S13). `init(category:)` gives 1.
    func setLimit(_ limit: Int, for category: String) {
        guard limit >= 1 else {
            Misuse.trap(
                "MutuallyExclusive(category: \"\(category)\", limit: \(limit)): a limit is at least 1 (S19)")
        }
        let earlier = state.withLock { state -> Int? in
            if let earlier = state.limits[category] { return earlier == limit ? nil : earlier }
            guard limit > 1 else { return nil }
            // Held or waited for with limit 1 right now: that was the first limit given.
            if state.categories[category] != nil { return 1 }
            state.limits[category] = limit
            return nil
        }
        if let earlier {
            Misuse.trap(
                "MutuallyExclusive(category: \"\(category)\", limit: \(limit)): the category's limit is "
                    + "\(earlier), the first one given; one category has one limit (S13, S19)")
        }
    }

    /// The limit of `category`: 1 unless ``setLimit(_:for:)`` gave it another.
    func limit(of category: String) -> Int {
        state.withLock { $0.limits[category] ?? 1 }
    }

    /// Requests `categories` for `requester`. Returns `true` when they are all held at once;
    /// otherwise `grant` runs once they are, outside the lock. A request `requester` still had is
    /// given back first.
    @discardableResult
    func acquire(
        _ categories: Set<String>, for requester: ObjectIdentifier, operation: ConditionalOperation? = nil,
        grant: @escaping Grant
    ) -> Bool {
        let (isGranted, grants, wakes) = state.withLock { state -> (Bool, [Grant], [RateWake]) in
            var lines: [Category] = []
            lines.reserveCapacity(categories.count)
            var rates: [RateBucket] = []
            for name in categories {
                if let rate = state.rate(forKey: name) {
                    rates.append(rate)
                } else {
                    lines.append(state.category(named: name))
                }
            }
            let request = Request(categories: lines, rates: rates, grant: grant, requester: operation)
            var time = ClockReading(state.clock)
            let grants =
                state.requests.updateValue(request, forKey: requester).map { state.withdraw($0, time: &time) }
                ?? []
            for category in request.categories { category.append(request) }
            for rate in rates { rate.line.append(request) }
            let isGranted = state.grant(request, time: &time) != nil
            // Granted, `grant` asked for what its permits need; waiting, it may wait for time.
            if !isGranted { state.wakeWhenTimeFrees(rates, time: &time) }
            return (isGranted, grants, state.takeWakes())
        }
        schedule(wakes)
        for grant in grants { grant() }
        return isGranted
    }

    /// Gives back what `requester` holds, or withdraws its waiting request, and grants the
    /// requests that thereby became first.
    func release(for requester: ObjectIdentifier) {
        for grant in releaseDeferringGrants(for: requester) { grant() }
    }

    /// ``release(for:)``, but the requests that became first are only told when the caller runs
    /// the grants returned (outside every lock). They hold their categories already.
    func releaseDeferringGrants(for requester: ObjectIdentifier) -> [Grant] {
        let (grants, wakes) = state.withLock { state -> ([Grant], [RateWake]) in
            guard let request = state.requests.removeValue(forKey: requester) else { return ([], []) }
            var time = ClockReading(state.clock)
            return (state.withdraw(request, time: &time), state.takeWakes())
        }
        schedule(wakes)
        return grants
    }

    /// Where `requester`'s request stands in each of its categories, for diagnostics: who holds
    /// the category and how many requests are ahead of it. Empty when it has no request.
    func waits(for requester: ObjectIdentifier) -> [OperationDiagnosis.CategoryWait] {
        let (lines, rates) = state.withLock {
            state -> ([(String, ConditionalOperation?, Int)], [OperationDiagnosis.CategoryWait]) in
            guard let request = state.requests[requester] else { return ([], []) }
            let lines = request.categories.map { category in
                let line = category.line
                let position = line.firstIndex { $0 === request } ?? line.count
                return (category.name, category.admits(request) ? nil : line.first?.requester, position)
            }
            return (
                lines,
                request.isWaiting ? request.rates.map { $0.wait(of: request, at: state.clock.now) } : []
            )
        }
        // Names are read unlocked: `name` is Foundation's, and the holder may be let go of here.
        return lines.map { name, holder, ahead in
            OperationDiagnosis.CategoryWait(
                category: Self.unscopedName(name), holder: holder?.diagnosticName, ahead: ahead)
        } + rates
    }

    /// The requests holding or waiting for `category`, for diagnostics and tests.
    func requestCount(for category: String) -> Int {
        state.withLock { $0.categories[category]?.waitingCount ?? 0 }
    }

    /// The entries `category`'s line keeps (withdrawn ones not yet swept out included) and the
    /// entries its steps visited so far, for tests.
    func lineWork(for category: String) -> (stored: Int, visited: Int) {
        state.withLock { state in
            state.categories[category].map { ($0.requests.stored, $0.requests.visits) } ?? (0, 0)
        }
    }

    /// Whether the controller still keeps a queue for `category`, for tests: one nobody holds or
    /// waits for any more is forgotten, so unique category names don't accumulate.
    func isTracking(_ category: String) -> Bool {
        state.withLock { $0.categories[category] != nil }
    }
}

extension ExclusivityController {
    /// S7 in groups: the categories an operation run by `parent` (its nearest enclosing parent, if
    /// any) requests in place of `categories`.
    ///
    /// A child needing a category its group already holds would wait for the group, which waits
    /// for the child: a deadlock. So a category that an enclosing parent (the nearest one, see
    /// `OperationStateMachine.exclusivityParent`) declares is requested in that parent's scope
    /// instead: siblings still exclude each other, and everything outside waits for the whole
    /// group, which holds the category itself until every child finished. The parent holds one
    /// unit of a category with a limit (S19), and its children share that unit, one at a time:
    /// a scope's limit is 1, so the units in use never exceed the limit. A parent declares the
    /// same categories it holds: its children only run while it executes.
    static func scoped(_ categories: Set<String>, under parent: ConditionalOperation?) -> Set<String> {
        guard var parent else { return categories }
        // A rate limit's permit is spent, not held: a child takes its own (S28), never the group's.
        var unresolved = categories.filter { !RateLimit.isKey($0) }
        var requested = categories.subtracting(unresolved)
        while true {
            let (held, grandparent) = parent.exclusivityScope
            for category in unresolved.intersection(held) {
                requested.insert(scopedCategory(category, in: parent))
            }
            unresolved.subtract(held)
            guard !unresolved.isEmpty, let grandparent else { break }
            parent = grandparent
        }
        return requested.union(unresolved)
    }

    /// Whether `category` is private to the children of a parent (``scopedCategory(_:in:)``).
    static func isScoped(_ category: String) -> Bool {
        category.utf8.contains(0x1F)
    }

    /// The name a user gave a category that may be scoped (``scopedCategory(_:in:)``), or the
    /// name of an ``ExclusivityCategory`` from its key: what diagnostics show.
    static func unscopedName(_ category: String) -> String {
        guard let end = category.utf8.firstIndex(where: { $0 == 0x1F || $0 == 0x1E }) else { return category }
        return String(category[..<end])
    }

    /// `category` private to the children of `parent`. A parent outlives its children's
    /// requests (it finishes after them), so its identity can't be reused while they hold it.
    static func scopedCategory(_ category: String, in parent: ConditionalOperation) -> String {
        "\(category)\u{1F}scope \(UInt(bitPattern: ObjectIdentifier(parent)))"
    }
}
