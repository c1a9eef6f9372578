import Foundation

@testable import ConditionalOperations

/// The invariants of a finished scenario: every operation ended once, in order (S1); its errors
/// are the ones the steps could give it and none was lost (S2, S4, S5, S6, S11); no category is
/// left held (S7). A scenario whose steps land in a known order on a known phase is held to its
/// exact outcome as well.
enum AdversaryScenarioChecks {
    static func check(_ fixture: AdversaryFixture) -> [String] {
        var failures: [String] = []
        for member in fixture.members {
            failures += StressChecks.lifecycle(of: member.operation, probe: member.probe).map {
                "\(member.label): \($0)"
            }
        }
        failures += errors(fixture)
        if fixture.scenario.isDeterministic { failures += exactOutcome(fixture) }
        for category in fixture.categories {
            let requests = ExclusivityController.shared.requestCount(for: category)
            if requests != 0 { failures.append("S7: category '\(category)' still has \(requests) requests") }
        }
        return failures
    }

    // MARK: Errors

    private static func errors(_ fixture: AdversaryFixture) -> [String] {
        var failures: [String] = []
        let scenario = fixture.scenario
        let steps = Array(scenario.steps.enumerated())
        let timedOut = "OperationError: timed out"
        let shutDown = stressKey(OperationError.queueShutDown)
        func key(_ kind: StressError.Kind, _ index: Int) -> String {
            fixture.error(kind, step: index).description
        }

        // The subject's own: its cancels, finishes, gate failures, timers and shutdown.
        var subjectAllowed: Set<String> = []
        var subjectTimesOut = false
        for (index, step) in steps {
            switch step.ending {
            case .cancelWithError: if !step.onGroup { subjectAllowed.insert(key(.cancel, index)) }
            case .finishWithError: subjectAllowed.insert(key(.externalFinish, index))
            case .conditionFailed: subjectAllowed.insert(key(.condition, index))
            case .timeout, .deadline: if !step.onGroup { subjectTimesOut = true }
            case .shutdown: if !scenario.grouped { subjectAllowed.insert(shutDown) }
            default: break
            }
        }
        let subject = fixture.subject.errors.map(stressKey)
        let unexpected = subject.filter {
            !subjectAllowed.contains($0) && !(subjectTimesOut && $0.hasPrefix(timedOut))
        }
        if !unexpected.isEmpty { failures.append("subject: unexpected errors \(unexpected) in \(subject)") }
        failures += duplicates(subject, "subject")
        let subjectPlainly = steps.contains { _, step in
            step.ending == .cancel || step.ending == .cancelAll
                || (scenario.grouped && step.ending.isCancelling)
        }
        failures += halfDoneCancel(fixture.subject, fixture.subject.probe, plainly: subjectPlainly, "subject")

        guard let group = fixture.group else { return failures }
        // The group's: its own cancels and timers, and every child's errors (S11).
        var groupAllowed = Set(subject)
        var groupTimesOut = false
        for (index, step) in steps where step.onGroup {
            if step.ending == .cancelWithError { groupAllowed.insert(key(.cancel, index)) }
            if step.ending == .timeout || step.ending == .deadline { groupTimesOut = true }
        }
        if steps.contains(where: { $0.element.ending == .shutdown }) { groupAllowed.insert(shutDown) }
        let groupErrors = group.errors.map(stressKey)
        let foreign = groupErrors.filter {
            !groupAllowed.contains($0) && !(groupTimesOut && $0.hasPrefix(timedOut))
        }
        if !foreign.isEmpty { failures.append("group: unexpected errors \(foreign) in \(groupErrors)") }
        let lost = Set(subject).subtracting(groupErrors)
        if !lost.isEmpty {
            failures.append("S11: the group lost its child's errors \(lost.sorted()): \(groupErrors)")
        }
        failures += duplicates(groupErrors, "group")
        let groupPlainly = steps.contains { _, step in
            (step.onGroup && step.ending == .cancel) || step.ending == .cancelAll
        }
        failures += halfDoneCancel(group, group.probe, plainly: groupPlainly, "group")
        return failures
    }

    private static func duplicates(_ keys: [String], _ label: String) -> [String] {
        let own = keys.filter { !$0.hasPrefix("OperationError: ") }
        return Set(own).count == own.count ? [] : ["\(label): an error recorded twice: \(keys)"]
    }

    /// A cancel is whole: the flag, `didCancel` and, when every cancel of the scenario carried an
    /// error, that error (S4, S5).
    private static func halfDoneCancel(
        _ operation: ConditionalOperation, _ probe: StressProbe, plainly: Bool, _ label: String
    ) -> [String] {
        guard operation.isCancelled, !plainly else { return [] }
        if operation.errors.isEmpty { return ["S4/S5: \(label) cancelled only with errors, but it has none"] }
        if let first = StressEvents(probe.events).cancels.first, first.isEmpty {
            return ["S4/S5: \(label) cancelled only with errors, but didCancel carried none"]
        }
        return []
    }

    // MARK: The exact outcome

    /// Steps taken in order, no timer among them: what the subject (and its group) must end with.
    private static func exactOutcome(_ fixture: AdversaryFixture) -> [String] {
        let scenario = fixture.scenario
        let subject = fixture.subject
        let errors = subject.errors.map(stressKey)
        let executed = !StressEvents(subject.probe.events).executions.isEmpty
        var failures: [String] = []
        func require(_ condition: Bool, _ message: @autoclosure () -> String) {
            if !condition {
                failures.append(
                    "exact outcome: \(message()) (errors \(errors), events \(subject.probe.events))")
            }
        }
        let natural = {
            require(!subject.isCancelled, "not cancelled")
            require(executed, "executed")
            require(errors.isEmpty, "no errors")
        }
        switch scenario.phase {
        case .finishing, .finished:
            natural()  // every step came once finishing began: none changes anything
            return failures
        default:
            break
        }
        let isExecuting = scenario.phase == .executing
        let landings = Array(scenario.steps.enumerated())
        guard let (index, first) = landings.first(where: { isTerminal($0.offset, fixture) }) else {
            natural()
            return failures
        }
        // A step before it may have let the subject start: a condition satisfied, a slot freed.
        let freeing: Set<AdversaryEnding> =
            switch scenario.phase {
            case .evaluatingConditions: [.conditionSatisfied]
            case .waitingForSlot: [.suspendResume, .maxConcurrency]
            default: []
            }
        // cancelAllOperations cancels the slot holder before the subject, and the queue may start
        // the subject in between.
        let freesItsOwnSlot = scenario.phase == .waitingForSlot && first.ending == .cancelAll
        let mayHaveStarted =
            isExecuting || freesItsOwnSlot
            || landings.prefix(index).contains { freeing.contains($0.element.ending) }
        let later = landings.dropFirst(index + 1)
        let laterCancel = later.contains { isTerminal($0.offset, fixture) && $0.element.ending.isCancelling }
        let laterFinish = later.contains {
            $0.element.ending == .finish || $0.element.ending == .finishWithError
        }
        switch first.ending {
        case .cancel, .cancelWithError, .cancelAll:
            require(subject.isCancelled, "S4/S5: cancelled by \(first)")
            require(mayHaveStarted || !executed, "S4: never executed once cancelled before")
            if first.ending == .cancelWithError && !first.onGroup {
                let error = fixture.error(.cancel, step: index).description
                require(errors.contains(error), "S4/S5: the cancel's error kept")
                require(
                    StressEvents(subject.probe.events).cancels.first?.first == error, "S4: didCancel got it")
            }
            if isExecuting {
                require(!errors.contains { $0.hasPrefix("externalFinish#") }, "S5: a later finish ignored")
            }
        case .finish, .finishWithError:
            require(mayHaveStarted || !executed, "S6: never executed once finished before")
            if first.ending == .finishWithError {
                require(
                    errors.contains(fixture.error(.externalFinish, step: index).description),
                    "S6: its errors kept")
            }
            if isExecuting {
                require(!subject.isCancelled, "S5/S6: a cancel after the finish changes nothing")
                require(errors.count == (first.ending == .finish ? 0 : 1), "S6: the first finish wins")
            } else if !laterCancel && !mayHaveStarted {
                require(!subject.isCancelled, "not cancelled")
            }
        case .conditionFailed:
            require(!executed, "S2: never executed after a failed condition")
            // A cancel or a finish before the gate is asked abandons it (S4, S6): its failure is
            // then never recorded.
            if (!laterCancel && !laterFinish) || scenario.phase == .evaluatingConditions {
                require(
                    errors.contains(fixture.error(.condition, step: index).description),
                    "S2: the failure kept")
            }
            if !laterCancel { require(!subject.isCancelled, "S2: a failed condition is not a cancellation") }
        case .conditionSkipped:
            require(!executed, "S17: never executed after a skip")
            if !laterCancel && !laterFinish {
                require(
                    subject.isSkipped && errors.isEmpty && !subject.isCancelled, "S17: skipped, no errors")
            }
        default:
            break
        }
        // S4: before the subject is enqueued, every cancel(with:) before a finish adds its error.
        if scenario.phase == .beforeEnqueue {
            for (index, step) in landings where step.ending == .cancelWithError && !step.onGroup {
                if landings.prefix(index).contains(where: {
                    $0.element.ending == .finish || $0.element.ending == .finishWithError
                }) {
                    break
                }
                require(
                    errors.contains(fixture.error(.cancel, step: index).description),
                    "S4: every cancel's error kept")
            }
        }
        if let group = fixture.group, first.onGroup || first.ending == .cancelAll {
            require(group.isCancelled, "S11: the group cancelled by \(first)")
            if first.ending == .cancelWithError {
                let error = fixture.error(.cancel, step: index).description
                require(group.errors.map(stressKey).contains(error), "the group kept its cancel's error")
            }
        }
        return failures
    }

    /// Whether `step`, landing in the scenario's phase, ends the subject (the first one to land
    /// decides the outcome).
    private static func isTerminal(_ index: Int, _ fixture: AdversaryFixture) -> Bool {
        let steps = fixture.scenario.steps
        let phase = fixture.scenario.phase
        switch steps[index].ending {
        case .cancel, .cancelWithError, .finish, .finishWithError: return true
        case .conditionFailed, .conditionSkipped:
            // Only while the gate has not answered: its first answer counts.
            return phase <= .evaluatingConditions
                && !steps.prefix(index).contains { $0.ending == .conditionSatisfied }
        case .cancelAll: return phase != .beforeEnqueue
        default: return false
        }
    }
}

extension AdversaryEnding {
    /// Cancels the operation it reaches.
    var isCancelling: Bool {
        [.cancel, .cancelWithError, .cancelAll, .timeout, .deadline, .shutdown].contains(self)
    }
}
