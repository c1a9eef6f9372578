import ConditionalOperationsMachines

/// Grants mutually exclusive categories and rate-limit permits across the whole process, first
/// come, first served (S7, S19, S28): the storage of one ``ExclusivityStateMachine`` behind one
/// lock.
///
/// Each method reads the clock where its event needs the time (before the lock: the machine reads
/// none), runs the event under the lock, and performs its action once unlocked: it sets the timers
/// rate limits ask for and runs the grants of the requests that came to hold everything. A
/// requester (an operation) has one request at a time; releasing is idempotent and also withdraws
/// a request still waiting.
final class ExclusivityController: Sendable {
    static let shared = ExclusivityController()

    typealias Grant = ExclusivityStateMachine.Grant

    /// The time rate limits read and the timer waking their waiters.
    let clock: any RateClock
    private let machine = Locked(ExclusivityStateMachine())

    init(clock: any RateClock = MonotonicRateClock()) {
        self.clock = clock
    }

    /// Requests `categories` (keys as conditions give them, ``CategoryKey``) for `requester`.
    /// Returns ``CategoryAcquisition/granted`` when they are all held at once; otherwise `grant` runs once
    /// they are, outside the lock. A request `requester` still had is given back first. A key
    /// giving a category or a rate limit another limit or rate than the first one given stops the
    /// program naming `operation` (S13).
    @discardableResult
    func acquire(
        _ categories: Set<String>, for requester: ObjectIdentifier, operation: ConditionalOperation? = nil,
        grant: @escaping Grant
    ) -> CategoryAcquisition {
        let needs = categories.map(CategoryKey.need(of:))
        var now = needs.contains(where: \.isRate) ? clock.now : nil
        while true {
            let action = machine.withLock {
                $0.acquire(needs, for: requester, requester: operation, now: now, grant: grant)
            }
            switch action {
            case .readClock:
                now = clock.now
            case .misuse(let conflict):
                Misuse.trap(Self.message(for: conflict, by: operation))
            case .granted(let effects):
                perform(effects)
                return .granted
            case .waits(let effects, let ahead):
                perform(effects)
                return .waits(ahead: ahead)
            }
        }
    }

    /// Gives back what `requester` holds, or withdraws its waiting request, and grants the
    /// requests that thereby became first.
    func release(for requester: ObjectIdentifier) {
        for grant in releaseDeferringGrants(for: requester) { grant() }
    }

    /// ``release(for:)``, but the requests that became first are only told when the caller runs
    /// the grants returned (outside every lock). They hold their categories already.
    func releaseDeferringGrants(for requester: ObjectIdentifier) -> [Grant] {
        var now: UInt64?
        while true {
            switch machine.withLock({ $0.release(for: requester, now: now) }) {
            case .readClock:
                now = clock.now
            case .released(let effects):
                schedule(effects.wakes)
                return effects.grants
            }
        }
    }

    /// Sets the timers `effects` ask for, then runs its grants.
    private func perform(_ effects: ExclusivityStateMachine.Effects) {
        schedule(effects.wakes)
        for grant in effects.grants { grant() }
    }

    private func schedule(_ wakes: [ExclusivityStateMachine.Wake]) {
        for wake in wakes {
            clock.wake(at: wake.deadline) { self.timeFreed(rate: wake.rate) }
        }
    }

    /// A rate limit's timer fired: lets in the waiters the permits now free admit.
    private func timeFreed(rate: Int) {
        let now = clock.now
        perform(machine.withLock { $0.timeFreed(rate: rate, now: now) })
    }

    /// Where `requester`'s request stands in each of its categories and rate limits, for
    /// diagnostics: who holds the category and how many requests are ahead of it. Empty when it
    /// has no request.
    func waits(for requester: ObjectIdentifier) -> [OperationDiagnosis.CategoryWait] {
        let now = clock.now
        let waits = machine.withLock { $0.waits(of: requester, now: now) }
        // Names are read unlocked: `name` is Foundation's, and the holder may be let go of here.
        return waits.map { wait in
            OperationDiagnosis.CategoryWait(
                category: Self.unscopedName(wait.line),
                holder: (wait.holder as? ConditionalOperation)?.diagnosticName, ahead: wait.ahead,
                rateLimit: wait.rate.map {
                    OperationDiagnosis.RateLimitWait(
                        permits: $0.permits, interval: .nanoseconds(Int64(clamping: $0.interval)),
                        nextPermit: Double($0.nextPermit) / 1e9)
                })
        }
    }

    /// How many operations may hold the string category `category` at once: 1 unless an operation
    /// asked for it with another limit (S19).
    func limit(of category: String) -> Int {
        machine.withLock { $0.limit(of: category) }
    }

    /// The requests holding or waiting for `category` (a line: a name, or a category object's
    /// key), for diagnostics and tests.
    func requestCount(for category: String) -> Int {
        machine.withLock { $0.requestCount(inCategory: category) }
    }

    /// The entries `category`'s line keeps (withdrawn ones not yet swept out included) and the
    /// entries its steps visited so far, for tests.
    func lineWork(for category: String) -> (stored: Int, visited: Int) {
        machine.withLock { $0.work(inCategory: category) }
    }

    /// Whether the controller still keeps a line for `category`, for tests: one nobody holds or
    /// waits for any more is forgotten, so unique category names don't accumulate.
    func isTracking(_ category: String) -> Bool {
        machine.withLock { $0.isTracking(category: category) }
    }

    /// The requests waiting for a permit of the rate limit named `name`, for tests.
    func rateLineCount(named name: String) -> Int {
        machine.withLock { $0.requestCount(inRateLimit: CategoryKey.rateLine(named: name)) }
    }

    /// The misuse `conflict` is, in words naming `operation` and the rule (S13).
    static func message(for conflict: ExclusivityStateMachine.Conflict, by operation: ConditionalOperation?)
        -> String
    {
        let who = operation?.diagnosticName ?? "an operation"
        switch conflict {
        case .limit(let line, let given, let first):
            return "\(who): MutuallyExclusive(category: \"\(unscopedName(line))\", limit: \(given)): the "
                + "category's limit is \(first), the first one given; one category has one limit (S13, S19)"
        case .rate(let line, let given, let first):
            let spelled = RateLimit.spelled(unscopedName(line), permits: given.permits, per: given.interval)
            return "\(who): \(spelled): the rate limit's rate is \(first.permits) per "
                + "\(Duration.nanoseconds(Int64(clamping: first.interval))), the first one given; one name "
                + "has one rate (S13, S28)"
        }
    }
}
