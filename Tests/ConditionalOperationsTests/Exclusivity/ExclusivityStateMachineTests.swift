import ConditionalOperationsMachines
import Testing

extension ConditionalOperationsTests {
    /// The exclusivity machine as a value, without threads, clock or timers: each event's action
    /// for a given state (S7, S19, S28, S13).
    @Suite struct ExclusivityStateMachineTests {
        typealias Machine = ExclusivityStateMachine

        final class Owner {}

        /// The outcome of an acquire, in words.
        static func outcome(_ action: Machine.AcquireAction) -> String {
            switch action {
            case .readClock: "read the clock"
            case .misuse(let conflict): "misuse \(conflict)"
            case .granted(let effects):
                "granted, \(effects.grants.count) grants, \(effects.wakes.count) wakes"
            case .waits(let effects, _): "waits, \(effects.grants.count) grants, \(effects.wakes.count) wakes"
            }
        }

        static func effects(_ action: Machine.ReleaseAction) -> Machine.Effects? {
            if case .released(let effects) = action { return effects }
            return nil
        }

        static func category(_ line: String, _ limit: Machine.Limit = .unstated) -> Machine.Need {
            .category(line: line, limit: limit)
        }

        /// Acquires `needs` for `owner`, recording `label` in `granted` when a later grant runs.
        static func acquire(
            _ needs: [Machine.Need], _ owner: Owner, in machine: inout Machine, now: UInt64? = 0,
            label: String = "", granted: Recorder = Recorder()
        ) -> String {
            outcome(
                machine.acquire(needs, for: ObjectIdentifier(owner), requester: nil, now: now) {
                    granted.record(label)
                })
        }

        /// S36: a request that waits says how many are ahead of it in the longest of its lines,
        /// the holder included and a request withdrawn meanwhile left out.
        @Test func S36_aWaitingRequestSaysHowManyAreAheadOfIt() {
            var machine = Machine()
            let owners = (0..<4).map { _ in Owner() }
            func ahead(_ owner: Owner, _ needs: [Machine.Need]) -> Int? {
                let action = machine.acquire(needs, for: ObjectIdentifier(owner), requester: nil, now: nil) {}
                guard case .waits(_, let ahead) = action else { return nil }
                return ahead
            }
            #expect(ahead(owners[0], [Self.category("a")]) == nil)  // granted
            #expect(ahead(owners[1], [Self.category("a")]) == 1)
            #expect(ahead(owners[2], [Self.category("b"), Self.category("a")]) == 2)
            _ = machine.release(for: ObjectIdentifier(owners[1]), now: nil)  // withdrawn
            #expect(ahead(owners[3], [Self.category("a")]) == 2)
            for owner in owners { _ = machine.release(for: ObjectIdentifier(owner), now: nil) }
        }

        @Test func S7_aRequestWaitsBehindTheHolderAndIsGrantedAsItReleases() {
            var machine = Machine()
            let (holder, waiter) = (Owner(), Owner())
            let granted = Recorder()
            #expect(
                Self.acquire([Self.category("a")], holder, in: &machine, now: nil)
                    == "granted, 0 grants, 0 wakes")
            #expect(
                Self.acquire(
                    [Self.category("a")], waiter, in: &machine, now: nil, label: "waiter", granted: granted)
                    == "waits, 0 grants, 0 wakes")
            #expect(machine.requestCount(inCategory: "a") == 2)
            let effects = Self.effects(machine.release(for: ObjectIdentifier(holder), now: nil))
            #expect(effects?.grants.count == 1)
            for grant in effects?.grants ?? [] { grant() }
            #expect(granted.all == ["waiter"])
            _ = machine.release(for: ObjectIdentifier(waiter), now: nil)
            #expect(!machine.isTracking(category: "a"), "nobody left: forgotten")
        }

        /// A withdrawn waiter leaves a gap; a request that takes its slot in the table later is not
        /// the gap, and keeps its own place at the end of the line.
        @Test func S7_aSlotUsedAgainIsNotTheRequestThatLeftIt() {
            var machine = Machine()
            let owners = (0..<4).map { _ in Owner() }
            let granted = Recorder()
            for (index, owner) in owners.prefix(3).enumerated() {
                _ = Self.acquire(
                    [Self.category("a")], owner, in: &machine, label: "\(index)", granted: granted)
            }
            _ = machine.release(for: ObjectIdentifier(owners[1]), now: 0)
            #expect(
                Self.acquire([Self.category("a")], owners[3], in: &machine, label: "3", granted: granted)
                    == "waits, 0 grants, 0 wakes")
            for index in [0, 2] {
                let effects = Self.effects(machine.release(for: ObjectIdentifier(owners[index]), now: 0))
                for grant in effects?.grants ?? [] { grant() }
            }
            #expect(granted.all == ["2", "3"])
        }

        /// S19, S13: a limit stated by a condition is recorded when a request first asks with it;
        /// another one later is a misuse that changes nothing; a request stating none takes it.
        @Test func S19_anotherLimitIsAMisuseThatChangesNothing() {
            var machine = Machine()
            let owners = (0..<4).map { _ in Owner() }
            #expect(
                Self.acquire([Self.category("a", .stated(2))], owners[0], in: &machine).hasPrefix("granted"))
            _ = machine.release(for: ObjectIdentifier(owners[0]), now: 0)
            #expect(machine.limit(of: "a") == 2, "kept once nobody holds it")
            #expect(
                Self.acquire([Self.category("a", .stated(3))], owners[1], in: &machine)
                    == "misuse \(Machine.Conflict.limit(line: "a", given: 3, first: 2))")
            #expect(!machine.isTracking(category: "a"))
            #expect(Self.acquire([Self.category("a")], owners[2], in: &machine).hasPrefix("granted"))
            #expect(
                Self.acquire([Self.category("a")], owners[3], in: &machine).hasPrefix("granted"),
                "two at once")
        }

        @Test func S28_anotherRateIsAMisuse() {
            var machine = Machine()
            let owners = (0..<2).map { _ in Owner() }
            let rate = Machine.Need.rate(line: "api", permits: 2, interval: 100)
            #expect(Self.acquire([rate], owners[0], in: &machine).hasPrefix("granted"))
            let other = Machine.Need.rate(line: "api", permits: 3, interval: 100)
            #expect(
                Self.acquire([other], owners[1], in: &machine)
                    == "misuse \(Machine.Conflict.rate(line: "api", given: (3, 100), first: (2, 100)))")
        }

        /// The machine reads no clock: an event that needs the time and was not given it asks for
        /// it, changing nothing.
        @Test func S28_anEventNeedingTheTimeAsksForIt() {
            var machine = Machine()
            let owners = (0..<3).map { _ in Owner() }
            let rate = Machine.Need.rate(line: "api", permits: 1, interval: 100)
            #expect(Self.acquire([rate], owners[0], in: &machine, now: nil) == "read the clock")
            #expect(machine.requestCount(inRateLimit: "api") == 0)
            #expect(Self.acquire([rate], owners[0], in: &machine, now: 0) == "granted, 0 grants, 0 wakes")
            #expect(Self.acquire([rate], owners[1], in: &machine, now: 10) == "waits, 0 grants, 1 wakes")
            // A waiter in a rate limit's line: a release may grant it, so it needs the time.
            _ = Self.acquire([Self.category("b")], owners[2], in: &machine, now: nil)
            if case .readClock = machine.release(for: ObjectIdentifier(owners[2]), now: nil) {
            } else {
                Issue.record("a release while a request waits for a permit asks for the time")
            }
        }

        @Test func S28_theTimerLetsTheNextWaiterInOnceThePermitExpires() {
            var machine = Machine()
            let owners = (0..<2).map { _ in Owner() }
            let granted = Recorder()
            let rate = Machine.Need.rate(line: "api", permits: 1, interval: 100)
            _ = Self.acquire([rate], owners[0], in: &machine, now: 0)
            let action = machine.acquire([rate], for: ObjectIdentifier(owners[1]), requester: nil, now: 10) {
                granted.record("second")
            }
            guard case .waits(let effects, _) = action else {
                Issue.record("the second waits for the window: \(Self.outcome(action))")
                return
            }
            #expect(effects.wakes.map(\.deadline) == [100] && effects.wakes.map(\.rate) == [0])
            #expect(machine.timeFreed(rate: 0, now: 99).grants.isEmpty, "not yet")
            let freed = machine.timeFreed(rate: 0, now: 100)
            for grant in freed.grants { grant() }
            #expect(granted.all == ["second"])
            #expect(machine.requestCount(inRateLimit: "api") == 0)
        }
    }
}
