import Dispatch
import Foundation

@testable import ConditionalOperations

/// An operation of a stress batch: executes as its plan says and records what happened to it.
final class StressOperation: ConditionalOperation, @unchecked Sendable {  // stored state: lets only
    let index: Int
    let plan: StressPlan.OperationPlan
    let probe = StressProbe()
    let context: StressContext
    let conditionStatuses: [StressConditionStatus]

    init(
        index: Int, plan: StressPlan.OperationPlan, context: StressContext, statuses: [StressConditionStatus]
    ) {
        self.index = index
        self.plan = plan
        self.context = context
        self.conditionStatuses = statuses
        super.init()
        name = "#\(index)"
    }

    override var finishesWhenCancelled: Bool { plan.finishesWhenCancelled }

    var ownErrors: [any Error] {
        plan.finishesWithError ? [StressError(kind: .finish, operation: index)] : []
    }

    override func execute() {
        probe.record(.execute(state))
        for number in 0..<plan.produces {
            let extraWork = context.extraWork
            extraWork.countUp()
            let produced = BlockOperation { extraWork.countDown() }
            produced.name = "produced by #\(index) (\(number))"
            context.track(produced, produced.name ?? "")
            produceOperation(produced)
        }
        switch plan.work {
        case .finishAtOnce:
            finish(errors: ownErrors)
        case .finishLater(let delay):
            let errors = ownErrors
            stressAfter(delay) { self.finish(errors: errors) }
        case .never:
            break
        }
    }

    override func finished(errors: [any Error]) {
        probe.callback(.hook(errors.map(stressKey))) {
            if probe.hasStarted { context.leave(index, categories: plan.categories) }
        }
    }

    /// Cancels as the plan says: with an error, or plainly; `copy` 1 is the second of a double cancel.
    func cancelAsPlanned(copy: Int = 0) {
        if plan.cancel?.withError ?? true {
            cancel(with: StressError(kind: .cancel, operation: index, index: copy))
        } else {
            cancel()
        }
    }

    /// Cancels from other threads `delay` µs from now, twice if the plan says so.
    func scheduleCancel(after delay: Int) {
        for copy in 0..<((plan.cancel?.twice ?? false) ? 2 : 1) {
            stressAfter(delay) { [weak self] in self?.cancelAsPlanned(copy: copy) }
        }
    }
}

/// Records every callback in its operation's probe; enters the operation's categories at
/// `operationDidStart` and, if planned, cancels it a moment later from another thread.
struct StressObserver: OperationObserver {
    let probe: StressProbe
    let context: StressContext
    let index: Int
    let categories: [Int]
    let cancelAfterStart: Int?

    func operationDidStart(_ operation: ConditionalOperation) {
        probe.callback(.didStart) {
            context.enter(index, categories: categories)
            if let delay = cancelAfterStart { (operation as? StressOperation)?.scheduleCancel(after: delay) }
        }
    }

    func operation(_ operation: ConditionalOperation, didProduce newOperation: Foundation.Operation) {
        probe.callback(.didProduce)
    }

    func operationDidCancel(_ operation: ConditionalOperation, errors: [any Error]) {
        probe.callback(.didCancel(errors.map(stressKey)))
    }

    func operationDidFinish(_ operation: ConditionalOperation, errors: [any Error]) {
        probe.callback(.didFinish(errors.map(stressKey)))
    }
}

/// A scripted condition: answers now or later from another thread, maybe twice, maybe with a
/// dependency (S3), maybe cancelling its operation first. Checks that it is evaluated only once
/// every dependency finished (S2) and after its own dependency ran (S3).
final class StressCondition: OperationCondition {
    let status: StressConditionStatus
    let context: StressContext
    let operationIndex: Int
    /// The condition's position in its operation's plan.
    let conditionIndex: Int
    let cancelWithError: Bool

    init(
        status: StressConditionStatus, context: StressContext, operationIndex: Int, conditionIndex: Int,
        cancelWithError: Bool
    ) {
        self.status = status
        self.context = context
        self.operationIndex = operationIndex
        self.conditionIndex = conditionIndex
        self.cancelWithError = cancelWithError
    }

    var name: String { status.name }

    func dependency(for operation: ConditionalOperation) -> Foundation.Operation? {
        let plan = status.plan
        let extraWork = context.extraWork
        var made: Foundation.Operation?
        if plan.hasDependency {
            extraWork.countUp()
            let dependency = BlockOperation {}
            dependency.name = "dependency of \(status.name)"
            dependency.completionBlock = { extraWork.countDown() }
            context.track(dependency, dependency.name ?? "")
            made = dependency
        }
        status.update {
            $0.dependencyRequests += 1
            if let made { $0.dependency = made }
        }
        return made
    }

    func evaluate(
        for operation: ConditionalOperation,
        completion: @escaping @Sendable (OperationConditionResult) -> Void
    ) {
        let state = status.current
        status.update { $0.evaluations += 1 }
        let unfinished = operation.dependencies.filter { !$0.isFinished }
        if !unfinished.isEmpty {
            let message =
                "S2: \(name) evaluated while dependencies are unfinished: \(unfinished.map { $0.name ?? "?" })"
            context.violation(message)
        }
        if let dependency = state.dependency, !dependency.isFinished {
            let isDependency = operation.dependencies.contains { $0 === dependency }
            let message =
                "S3: \(name) (\(status.wrapper)) evaluated before its dependency finished: the dependency is "
                + (isDependency ? "" : "not ") + "among the operation's dependencies, executing "
                + "\(dependency.isExecuting), cancelled \(dependency.isCancelled); the operation is "
                + "\(operation.state), cancelled \(operation.isCancelled)"
            context.violation(message)
        }
        let plan = status.plan
        let first: OperationConditionResult = plan.satisfied ? .satisfied : .failed(conditionError)
        let second: OperationConditionResult = plan.satisfied ? .failed(conditionError) : .satisfied
        let status = self.status
        let cancels = plan.cancelsOperation
        let cancelWithError = self.cancelWithError
        let index = operationIndex
        let answer: @Sendable () -> Void = { [weak operation] in
            if cancels, let operation {
                if cancelWithError {
                    operation.cancel(with: StressError(kind: .cancel, operation: index))
                } else {
                    operation.cancel()
                }
            }
            status.update { $0.answered = true }
            completion(first)
            if plan.answersTwice { completion(second) }
        }
        switch plan.timing {
        case .sync: answer()
        case .async(let delay): stressAfter(delay, answer)
        }
    }

    private var conditionError: StressError {
        StressError(kind: .condition, operation: operationIndex, index: conditionIndex)
    }
}
