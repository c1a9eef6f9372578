import ConditionalOperationsMachines
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests {
    /// The exclusivity machine against a model of its rules, over thousands of random events: a
    /// request holds its categories once it is among the first `limit` requests still in line in
    /// every one of them, in arrival order (S7, S19); asking again gives the earlier request's
    /// place up; a withdrawn or given-back request lets the next one in. The machine keeps its
    /// requests in a table whose slots are used again; the model keeps nothing but lists, so a slot
    /// taken for the request that left it would show here as a grant the model does not make. It
    /// found one bug on its first run: a requester asking again for the one line it was alone in
    /// (`S7_askingAgainForTheCategoryOnlyItHoldsKeepsItExclusive`).
    @Suite struct ExclusivityStateMachineModelTests {
        typealias Machine = ExclusivityStateMachine

        final class Owner {}

        /// A request as the model sees it: whose, which categories, and whether it was granted.
        struct Request {
            let owner: Int
            let serial: Int
            let categories: [Int]
        }

        /// The rules, written plainly: each category's line is its live requests in arrival order.
        struct Model {
            let limits: [Int]
            var requests: [Request] = []

            /// The requests that hold all their categories: among the first `limit` of each line.
            var holders: Set<Int> {
                var holders: Set<Int> = []
                for request in requests {
                    let admitted = request.categories.allSatisfy { category in
                        let line = requests.filter { $0.categories.contains(category) }
                        return line.prefix(limits[category]).contains { $0.serial == request.serial }
                    }
                    if admitted { holders.insert(request.serial) }
                }
                return holders
            }
        }

        @Test(arguments: [1, 2, 3, 42, 2026])
        func S7_S19_theMachineGrantsWhatTheRulesGrantAndNothingElse(seed: UInt64) {
            var random = SplitMix64(seed: seed)
            let limits = [1, 1, 2, 3]
            let owners = (0..<8).map { _ in Owner() }
            var machine = Machine()
            var model = Model(limits: limits)
            let granted = Locked<Set<Int>>([])
            var serial = 0
            var trace: [String] = []
            for step in 0..<3_000 {
                let owner = random.int(0..<owners.count)
                let identifier = ObjectIdentifier(owners[owner])
                if random.chance(50) {
                    // Ask for one to three categories, giving up any earlier request.
                    serial += 1
                    let count = random.int(1...3)
                    let categories = Array(
                        Set((0..<count).map { _ in random.int(0..<limits.count) })
                    )
                    .sorted()
                    let needs = categories.map {
                        Machine.Need.category(line: "c\($0)", limit: .own(limits[$0]))
                    }
                    let label = serial
                    let action = machine.acquire(needs, for: identifier, requester: nil, now: nil) {
                        _ = granted.withLock { $0.insert(label) }
                    }
                    model.requests.removeAll { $0.owner == owner }
                    model.requests.append(Request(owner: owner, serial: serial, categories: categories))
                    switch action {
                    case .granted(let effects):
                        _ = granted.withLock { $0.insert(label) }
                        for grant in effects.grants { grant() }
                    case .waits(let effects, _):
                        for grant in effects.grants { grant() }
                    case .readClock, .misuse:
                        Issue.record("step \(step): no rate limit, no stated limit: \(action)")
                    }
                } else {
                    // Give back what it holds, or withdraw what it waits for.
                    guard case .released(let effects) = machine.release(for: identifier, now: nil) else {
                        Issue.record("step \(step): a release without rate limits needs no time")
                        continue
                    }
                    model.requests.removeAll { $0.owner == owner }
                    for grant in effects.grants { grant() }
                }
                let live = Set(model.requests.map(\.serial))
                let holders = granted.withLock { $0.intersection(live) }
                trace.append(
                    "step \(step) owner \(owner) requests \(model.requests.map { "\($0.serial):o\($0.owner)\($0.categories)" }) machine \(holders.sorted())"
                )
                guard holders == model.holders else {
                    Issue.record(
                        "\(trace.suffix(6).joined(separator: "\n"))\nseed \(seed), step \(step): the machine granted \(holders.sorted()), the rules \(model.holders.sorted())"
                    )
                    return
                }
                for (category, limit) in limits.enumerated() {
                    let holding = model.requests.filter {
                        holders.contains($0.serial) && $0.categories.contains(category)
                    }
                    #expect(holding.count <= limit, "seed \(seed), step \(step): c\(category) over its limit")
                }
            }
            for owner in owners { _ = machine.release(for: ObjectIdentifier(owner), now: nil) }
            for category in limits.indices {
                #expect(
                    !machine.isTracking(category: "c\(category)"), "nobody left in c\(category): forgotten")
            }
        }
    }
}
