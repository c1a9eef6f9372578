import Dispatch
import Foundation

@testable import ConditionalOperations

/// The objects of one scenario, alive while it runs: the subject (maybe in a group), its gate
/// condition, its queue, and what holds it in its phase (a dependency, a category holder, a
/// slot holder).
final class AdversaryFixture: @unchecked Sendable {  // stored state: lets, and `Locked`
    let scenario: AdversaryScenario
    let queue: OperationQueue?
    let subject: AdversaryOperation
    let group: AdversaryGroup?
    let gate: AdversaryGate
    /// The subject's dependency (`waitingForDependency`), on `helperQueue`.
    let blocker: AdversaryOperation?
    /// Holds the subject's category (`waitingForCategory`), on `helperQueue`.
    let holder: AdversaryOperation?
    /// Takes the only slot (`waitingForSlot`): on `queue`, or the group's first child.
    let slotHolder: AdversaryOperation?
    let helperQueue: OperationQueue?
    let categories: [String]
    /// `shutdown(gracePeriod:)` calls still running.
    let shutdowns = Latch(count: 0)
    private let startedByHand = Locked(false)
    private let violations = Locked<[String]>([])
    private let holderLeft = Locked(false)

    var top: ConditionalOperation { group ?? subject }
    var recordedViolations: [String] { violations.withLock { $0 } }

    /// Every operation of the scenario, the subject first.
    var operations: [(label: String, operation: ConditionalOperation, probe: StressProbe)] {
        var all: [(String, ConditionalOperation, StressProbe)] = [("subject", subject, subject.probe)]
        if let group { all.append(("group", group, group.probe)) }
        for (label, helper) in [("blocker", blocker), ("holder", holder), ("slot holder", slotHolder)] {
            if let helper { all.append((label, helper, helper.probe)) }
        }
        return all
    }

    init(_ scenario: AdversaryScenario, seed: UInt64) {
        self.scenario = scenario
        let prefix = "adversary \(StressConfiguration.hex(seed)).\(scenario.index)"
        let phase = scenario.phase
        switch scenario.kind {
        case .plain: queue = OperationQueue()
        case .conditional: queue = ConditionalOperationQueue()
        case .byHand: queue = nil
        }
        queue?.name = prefix
        subject = AdversaryOperation(label: "\(prefix) subject")
        gate = AdversaryGate(name: "\(prefix) gate")
        // Past the conditions in these phases: the gate has answered before it is asked.
        if phase >= .waitingForCategory { gate.answer(.satisfied) }
        var categories: [String] = []
        // Conditions first: a condition added once admitted traps (S13).
        subject.addCondition(gate)
        if scenario.hasCategory {
            categories.append("\(prefix) own")
            subject.addCondition(MutuallyExclusive(category: "\(prefix) own"))
        }
        if phase == .waitingForCategory {
            let category = "\(prefix) held"
            categories.append(category)
            subject.addCondition(MutuallyExclusive(category: category))
            let holder = AdversaryOperation(label: "\(prefix) holder")
            holder.addCondition(MutuallyExclusive(category: category))
            self.holder = holder
        } else {
            holder = nil
        }
        self.categories = categories
        blocker = phase == .waitingForDependency ? AdversaryOperation(label: "\(prefix) blocker") : nil
        if let blocker { subject.addDependency(blocker) }
        helperQueue = blocker != nil || holder != nil ? ConditionalOperationQueue() : nil
        let slotTaken =
            phase == .waitingForSlot
            && (scenario.grouped || (scenario.kind != .byHand && !scenario.slotBySuspension))
        slotHolder = slotTaken ? AdversaryOperation(label: "\(prefix) slot holder") : nil
        if scenario.grouped {
            let group = AdversaryGroup(
                label: "\(prefix) group", children: [slotHolder, subject].compactMap { $0 })
            if slotHolder != nil { group.maxConcurrentChildren = 1 }
            self.group = group
        } else {
            group = nil
            if slotHolder != nil { queue?.maxConcurrentOperationCount = 1 }
        }
        for step in scenario.steps where step.ending == .timeout {
            (step.onGroup ? top : subject).addObserver(
                TimeoutObserver(timeout: .microseconds(step.parameter)))
        }
        watchTheSubjectsStart()
        _ = holder?.whenFinishing { [holderLeft] in holderLeft.withLock { $0 = true } }
    }

    func violation(_ message: String) {
        violations.withLock { $0.append(message) }
    }

    /// S2, S7, S9: when the subject starts, every dependency finished, its gate was satisfied and
    /// the holder of its category left.
    private func watchTheSubjectsStart() {
        let blocker = blocker
        let gate = gate
        let hasHolder = holder != nil
        let holderLeft = holderLeft
        subject.addObserver(
            BlockObserver(didStart: { [weak self] _ in
                if let blocker, !blocker.isFinished {
                    self?.violation("S9: executes before its dependency finished")
                }
                if gate.firstAnswer != "satisfied" {
                    self?.violation("S2: executes with its condition \(gate.firstAnswer)")
                }
                if hasHolder && !holderLeft.withLock({ $0 }) {
                    self?.violation("S7: executes while the holder of its category executes")
                }
            }))
    }

    // MARK: Moving

    /// Starts the helpers, then `readers` (once a helper holds what it holds: a reader's
    /// `isReady` admits the subject, S13), and brings the subject to its phase; returns what
    /// went wrong.
    func reachPhase(seconds: Double, readers: () -> Void) async -> [String] {
        var failures: [String] = []
        // The subject may finish first, without reaching the phase: its group timed out at its start.
        let finished = subject.completed
        func await_(_ latch: Latch, _ what: String) async {
            let either = Latch()
            for one in [latch, finished] {
                Task { if await one.wait(seconds: seconds) { either.countDown() } }
            }
            if !(await either.wait(seconds: seconds)) {
                failures.append("\(scenario.phase) never reached: \(what) after \(seconds) s")
            }
        }
        if let blocker { helperQueue?.addOperation(blocker) }
        if let holder {
            helperQueue?.addOperation(holder)
            await await_(holder.executing, "the category holder never executed")
        }
        readers()
        switch scenario.phase {
        case .beforeEnqueue:
            return failures  // the steps enqueue it
        case .waitingForDependency:
            enqueue()
        case .evaluatingConditions, .waitingForCategory:
            enqueue()
            await await_(gate.evaluated, "the gate never evaluated")
        case .waitingForSlot:
            if let slotHolder, group == nil {
                queue?.addOperation(slotHolder)
                await await_(slotHolder.executing, "the slot holder never executed")
            } else if scenario.slotBySuspension && group == nil {
                queue?.isSuspended = true
            }
            enqueue()
            if let slotHolder, group != nil {
                await await_(slotHolder.executing, "the slot holder never executed")
            }
        case .executing, .finishing, .finished:
            enqueue()
            await await_(subject.started, "the subject never started")
        }
        // The steps land on a group that runs its children (one starting is `beforeEnqueue`'s race).
        if let group { await await_(group.running, "the group never ran its children") }
        return failures
    }

    /// Hands the top operation to its queue; started by hand, starts it (or, waiting for a slot,
    /// only asks `isReady`, which admits it, S13).
    func enqueue() {
        if let queue {
            queue.addOperation(top)
        } else if scenario.phase == .waitingForSlot && group == nil {
            _ = top.isReady
        } else {
            startByHand()
        }
    }

    private func startByHand() {
        let first = startedByHand.withLock { started -> Bool in
            defer { started = true }
            return !started
        }
        if first { top.start() }
    }

    /// Lands every step as the scenario says; returns once they all returned (or `false` after
    /// `seconds`). In `finishing`, they land inside the subject's `finished(errors:)` hook.
    func landSteps(seconds: Double) async -> Bool {
        var steps: [@Sendable () -> Void] = scenario.steps.enumerated().map { index, step in
            { self.land(step, index: index) }
        }
        if scenario.phase == .beforeEnqueue { steps.append { self.enqueue() } }
        let bodies = steps
        let racing = scenario.racing
        let landAll: @Sendable () -> Bool = {
            if racing { return AdversaryRace(bodies).waitBlocking(seconds: seconds) }
            for body in bodies {
                body()
                sched_yield()
            }
            return true
        }
        switch scenario.phase {
        case .finishing:
            let landed = Latch()
            let inTime = Locked(true)
            let inHook = subject.whenFinishing {
                if !landAll() { inTime.withLock { $0 = false } }
                landed.countDown()
            }
            // Finished already (a timeout at its start): the steps land after the hook.
            guard inHook else { return await AdversaryRace([{ _ = landAll() }]).wait(seconds: seconds) }
            DispatchQueue.global().async { self.subject.resolve() }
            return await landed.wait(seconds: seconds + 1) && inTime.withLock { $0 }
        case .finished:
            subject.resolve()
            guard await subject.completed.wait(seconds: seconds) else { return false }
            return await AdversaryRace([{ _ = landAll() }]).wait(seconds: seconds)
        default:
            return await AdversaryRace([{ _ = landAll() }]).wait(seconds: seconds)
        }
    }

    func error(_ kind: StressError.Kind, step: Int) -> StressError {
        StressError(kind: kind, operation: scenario.index, index: step)
    }

    private func land(_ step: AdversaryStep, index: Int) {
        let target = step.onGroup ? top : subject
        switch step.ending {
        case .cancel: target.cancel()
        case .cancelWithError: target.cancel(with: error(.cancel, step: index))
        case .finish: subject.finish()
        case .finishWithError: subject.finish(errors: [error(.externalFinish, step: index)])
        case .conditionSatisfied: gate.answer(.satisfied)
        case .conditionFailed: gate.answer(.failed(error(.condition, step: index)))
        case .conditionSkipped: gate.answer(.skipped)
        case .timeout: break  // its observer was added before the subject was enqueued
        case .deadline: target.addDeadline(after: .microseconds(step.parameter))
        case .cancelAll: queue?.cancelAllOperations()
        case .shutdown:
            guard let queue = queue as? ConditionalOperationQueue else { return }
            let shutdowns = shutdowns
            shutdowns.countUp()
            let grace = Duration.microseconds(step.parameter)
            Task {
                await queue.shutdown(gracePeriod: grace)
                shutdowns.countDown()
            }
        case .suspendResume:
            queue?.isSuspended = true
            if step.parameter > 0 { usleep(UInt32(step.parameter)) }
            queue?.isSuspended = false
        case .maxConcurrency: queue?.maxConcurrentOperationCount = AdversaryStep.widths[step.parameter]
        case .priority: target.queuePriority = AdversaryStep.priorities[step.parameter]
        }
    }

    /// Lets everything that held the subject go: the gate answers, the helpers finish, the
    /// queue resumes, a scenario started by hand is started, the subject finishes once executing.
    func resolve() {
        gate.answer(.satisfied)
        blocker?.resolve()
        holder?.resolve()
        slotHolder?.resolve()
        queue?.isSuspended = false
        if queue == nil { startByHand() }
        subject.resolve()
    }

    /// After a stall: everything cancelled, so that the next scenarios start clean.
    func rescue() {
        resolve()
        for (_, operation, _) in operations { operation.cancel() }
        helperQueue?.isSuspended = false
    }
}
