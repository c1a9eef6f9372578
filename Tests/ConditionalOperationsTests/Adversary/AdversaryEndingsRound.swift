import Foundation

@testable import ConditionalOperations

/// One operation of a fixture, with what recorded it.
struct AdversaryMember {
    let label: String
    let operation: ConditionalOperation
    let probe: StressProbe
    let completed: Latch
}

extension AdversaryFixture {
    var members: [AdversaryMember] {
        var all = [
            AdversaryMember(
                label: "subject", operation: subject, probe: subject.probe, completed: subject.completed)
        ]
        if let group {
            all.append(
                AdversaryMember(
                    label: "group", operation: group, probe: group.probe, completed: group.completed))
        }
        for (label, helper) in [("blocker", blocker), ("holder", holder), ("slot holder", slotHolder)] {
            if let helper {
                all.append(
                    AdversaryMember(
                        label: label, operation: helper, probe: helper.probe, completed: helper.completed))
            }
        }
        return all
    }

    /// Everything the scenario made, to find what outlived it (S12).
    var references: [StressWeakReference] {
        var objects: [(AnyObject?, String)] = [
            (subject, "subject"), (group, "group"), (queue, "queue"), (gate, "gate condition"),
            (blocker, "blocker"), (holder, "holder"), (slotHolder, "slot holder"),
            (helperQueue, "helper queue"),
        ]
        objects.removeAll { $0.0 == nil }
        return objects.map { StressWeakReference(object: $0.0, label: $0.1) }
    }
}

/// Runs the scenarios of an ``AdversaryEndingsPlan``, a few at a time, and checks each.
enum AdversaryEndingsRound {
    /// - Parameter knownIssue: `nil` runs every scenario that trips no known issue; an issue runs
    ///   only the scenarios that trip it.
    static func run(
        _ plan: AdversaryEndingsPlan, concurrency: Int = 6, knownIssue: AdversaryKnownIssue? = nil
    ) async -> [String] {
        let seconds = AdversaryConfiguration.stallSeconds
        let scenarios = plan.scenarios.filter { scenario in
            guard let knownIssue else { return AdversaryKnownIssue.tripped(by: scenario).isEmpty }
            return knownIssue.matches(scenario)
        }
        return await withTaskGroup(of: [String].self) { group in
            var next = 0
            var failures: [String] = []
            func addNext() {
                guard next < scenarios.count else { return }
                let scenario = scenarios[next]
                next += 1
                group.addTask {
                    await run(scenario, seed: plan.seed, seconds: seconds)
                }
            }
            for _ in 0..<concurrency { addNext() }
            for await scenarioFailures in group {
                failures += scenarioFailures
                addNext()
            }
            return failures
        }
    }

    static func run(_ scenario: AdversaryScenario, seed: UInt64, seconds: Double) async -> [String] {
        var failures: [String] = []
        var references: [StressWeakReference] = []
        var clean = true
        do {
            let fixture = AdversaryFixture(scenario, seed: seed)
            references = fixture.references
            var readers: AdversaryReaders?
            let waiter = scenario.readers > 0 ? awaitFinish(of: fixture) : nil
            failures += await fixture.reachPhase(seconds: seconds) {
                if scenario.readers > 0 { readers = startReaders(fixture) }
            }
            if !(await fixture.landSteps(seconds: seconds)) {
                failures.append("the steps did not return within \(seconds) s")
            }
            fixture.resolve()
            clean = await waitForEveryMember(fixture, seconds: seconds, failures: &failures)
            if !(await fixture.shutdowns.wait(seconds: seconds)) {
                failures.append("S21: shutdown(gracePeriod:) did not return within \(seconds) s")
            }
            if let readers, !(await readers.stop()) { failures.append("the reader threads did not stop") }
            if let waiter, !(await waiter.wait(seconds: seconds)) {
                failures.append("S14: waitUntilFinished() did not return within \(seconds) s")
            }
            if clean { failures += AdversaryScenarioChecks.check(fixture) }
            failures += fixture.recordedViolations
        }
        if clean {
            let leaked = await references.outlived()
            if !leaked.isEmpty {
                failures.append("S12: outlived the scenario: \(leaked.joined(separator: ", "))")
            }
        }
        return failures.map { "\(scenario): \($0)" }
    }

    /// Waits for every operation to finish; after a stall, reports and rescues.
    private static func waitForEveryMember(
        _ fixture: AdversaryFixture, seconds: Double, failures: inout [String]
    ) async -> Bool {
        var stalled: [AdversaryMember] = []
        for member in fixture.members
        where !(await member.completed.wait(seconds: stalled.isEmpty ? seconds : 0.1)) {
            stalled.append(member)
        }
        guard !stalled.isEmpty else { return true }
        let report = stalled.map { member in
            "\(member.label) \(member.operation.state), cancelled \(member.operation.isCancelled), "
                + "events \(member.probe.events), \(member.operation.diagnosis)"
        }
        failures.append("stall after \(seconds) s: \(report.joined(separator: "; "))")
        fixture.rescue()
        for member in fixture.members where !(await member.completed.wait(seconds: 5)) {
            failures.append("\(member.label) never finished, even cancelled")
            return false
        }
        return false
    }

    private static func startReaders(_ fixture: AdversaryFixture) -> AdversaryReaders {
        let subject = fixture.subject
        let group = fixture.group
        let queue = fixture.queue
        return AdversaryReaders(count: fixture.scenario.readers) { iteration in
            AdversaryReading.read(subject, iteration: iteration)
            if let group { AdversaryReading.read(group, iteration: iteration) }
            if let queue { AdversaryReading.read(queue, iteration: iteration) }
        }
    }

    /// S14: `waitUntilFinished()` returns after `isFinished` and `operationDidFinish`.
    private static func awaitFinish(of fixture: AdversaryFixture) -> Latch {
        let returned = Latch()
        let subject = fixture.subject
        Task { [weak fixture] in
            await subject.untilFinished()
            let finishedFirst = subject.isFinished && StressEvents(subject.probe.events).finishes.count == 1
            if !finishedFirst { fixture?.violation("S14: waitUntilFinished() returned before didFinish") }
            returned.countDown()
        }
        return returned
    }
}
