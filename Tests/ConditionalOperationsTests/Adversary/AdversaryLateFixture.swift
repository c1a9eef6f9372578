import Dispatch
import Foundation

@testable import ConditionalOperations

/// The operations of one late change: the waiting ones (one, or five for priorities), what
/// holds them (a suspended queue, a slot holder), and the dependency added or removed (on a
/// queue of its own, held until the end).
final class AdversaryLateFixture: @unchecked Sendable {  // stored state: lets, and `Locked`
    let scenario: AdversaryLateScenario
    let queue: OperationQueue?
    let group: AdversaryGroup?
    let slotHolder: AdversaryOperation?
    let waiting: [AdversaryOperation]
    let dependency = AdversaryOperation(label: "dependency")
    /// The dependency it waits for when another is added (`dependencyAddedWhileWaiting`).
    let first = AdversaryOperation(label: "first dependency")
    let helperQueue = ConditionalOperationQueue()
    private let starts = Locked<[Int]>([])
    private let violations = Locked<[String]>([])

    var references: [StressWeakReference] {
        var objects: [(AnyObject?, String)] = [
            (queue, "queue"), (group, "group"), (slotHolder, "slot holder"), (dependency, "dependency"),
            (first, "first"),
            (helperQueue, "helper queue"),
        ]
        objects += waiting.enumerated().map { ($1, "waiting #\($0)") }
        return objects.compactMap { $0.0 == nil ? nil : StressWeakReference(object: $0.0, label: $0.1) }
    }

    init(_ scenario: AdversaryLateScenario, label: String) {
        self.scenario = scenario
        let count = scenario.change == .priorityChanged ? 5 : 1
        waiting = (0..<count).map { AdversaryOperation(label: "\(label) waiting #\($0)") }
        slotHolder =
            scenario.suspended || (scenario.kind == .byHand && !scenario.grouped)
            ? nil : AdversaryOperation(label: "\(label) slot holder")
        switch scenario.kind {
        case .plain: queue = OperationQueue()
        case .conditional: queue = ConditionalOperationQueue()
        case .byHand: queue = nil
        }
        if scenario.grouped {
            let group = AdversaryGroup(
                label: "\(label) group", children: [slotHolder].compactMap { $0 } + waiting)
            group.maxConcurrentChildren = 1
            self.group = group
        } else {
            group = nil
            if slotHolder != nil || scenario.change == .priorityChanged {
                queue?.maxConcurrentOperationCount = 1
            }
        }
        let dependency = dependency
        for (index, operation) in waiting.enumerated() {
            operation.addObserver(
                BlockObserver(didStart: { [weak self] _ in
                    self?.starts.withLock { $0.append(index) }
                    let added = [.dependencyAdded, .dependencyAddedWhileWaiting].contains(scenario.change)
                    if added && !dependency.isFinished {
                        self?.violations.withLock {
                            $0.append("S9: started before the dependency added to it finished")
                        }
                    }
                }))
        }
        if scenario.change == .dependencyRemoved { waiting[0].addDependency(dependency) }
        if scenario.change == .dependencyAddedWhileWaiting { waiting[0].addDependency(first) }
    }

    func run(seconds: Double) async -> [String] {
        var failures: [String] = []
        helperQueue.addOperation(dependency)
        helperQueue.addOperation(first)
        if scenario.change != .dependencyAddedWhileWaiting { first.resolve() }
        // Waiting: ready (or, for a removed dependency, waiting for it), not started.
        if let group {
            if let queue { queue.addOperation(group) } else { DispatchQueue.global().async { group.start() } }
            if let slotHolder, !(await slotHolder.executing.wait(seconds: seconds)) {
                failures.append("the slot holder never executed")
            }
        } else if let queue {
            queue.isSuspended = scenario.suspended
            if let slotHolder {
                queue.addOperation(slotHolder)
                if !(await slotHolder.executing.wait(seconds: seconds)) {
                    failures.append("the slot holder never executed")
                }
            }
            for operation in waiting { queue.addOperation(operation) }
        }
        if [.dependencyAdded, .priorityChanged].contains(scenario.change) {
            await waitUntil(seconds: seconds) { waiting.allSatisfy(\.isReady) }
            if !waiting.allSatisfy(\.isReady) { failures.append("never ready: \(waiting.map(\.state))") }
        }
        change()
        release()
        switch scenario.change {
        case .dependencyAdded, .dependencyAddedWhileWaiting:
            first.resolve()
            // Time to start wrongly, should it: the observer notes it.
            _ = await waiting[0].started.wait(seconds: 0.03)
            dependency.resolve()
        case .dependencyRemoved:
            waiting[0].resolve()
            if !(await waiting[0].completed.wait(seconds: seconds)) {
                failures.append("never ran without the dependency removed from it: \(waiting[0].diagnosis)")
            }
            dependency.resolve()
        case .priorityChanged:
            dependency.resolve()
        }
        for operation in waiting { operation.resolve() }
        let members = waiting + [dependency, first] + (slotHolder.map { [$0] } ?? [])
        for operation in members where !(await operation.completed.wait(seconds: seconds)) {
            failures.append("stall: \(operation.name ?? "") \(operation.state): \(operation.diagnosis)")
            return failures
        }
        if let group, !(await group.completed.wait(seconds: seconds)) {
            failures.append("the group never finished")
        }
        for operation in members {
            failures += StressChecks.lifecycle(of: operation, probe: operation.probe).map {
                "\(operation.name ?? ""): \($0)"
            }
        }
        if scenario.change == .priorityChanged {
            let order = starts.withLock { $0 }
            if order.first != 4 || order.last != 0 {
                failures.append(
                    "priorities changed while waiting for a slot ignored: started in the order \(order), expected 4 first, 0 last"
                )
            }
        }
        return failures + violations.withLock { $0 }
    }

    private func change() {
        switch scenario.change {
        case .dependencyAdded, .dependencyAddedWhileWaiting: waiting[0].addDependency(dependency)
        case .dependencyRemoved: waiting[0].removeDependency(dependency)
        case .priorityChanged:
            waiting[4].queuePriority = .veryHigh
            waiting[0].queuePriority = .veryLow
        }
    }

    /// Frees the slot: resumes the queue, lets the slot holder finish, or starts by hand.
    private func release() {
        queue?.isSuspended = false
        slotHolder?.resolve()
        if queue == nil && group == nil {
            let waiting = waiting
            DispatchQueue.global().async { for operation in waiting { operation.start() } }
        }
    }
}
