import Dispatch
import Foundation

@testable import ConditionalOperations

/// An operation of an adversarial scenario: records what happened to it (a ``StressProbe``) and,
/// once executing, runs until the harness resolves it: `execute()` finishes at once if
/// ``resolve()`` came first, else ``resolve()`` finishes it.
final class AdversaryOperation: ConditionalOperation, @unchecked Sendable {  // stored state: lets, `Locked`
    let probe = StressProbe()
    /// Released when `execute()` begins, or once finished without executing (cancelled by its
    /// group's zero timeout).
    let executing = Latch()
    /// Released when observers get `operationDidStart` (a zero timeout may then cancel it before
    /// it executes, S8), or once finished without starting (its group cancelled at its start).
    let started = Latch()
    /// Released by the completion block, once `isFinished`.
    let completed = Latch()
    private let flow = Locked(Flow())

    private struct Flow {
        var isExecuting = false
        var isResolved = false
        /// How long it works once executing and resolved, in µs.
        var work = 0
        var hasFinished = false
        var onFinishing: (@Sendable () -> Void)?
    }

    init(label: String) {
        super.init()
        name = label
        let probe = probe
        let completed = completed
        let started = started
        let executing = executing
        completionBlock = {
            probe.record(.completionBlock)
            completed.countDown()
            started.countDown()
            executing.countDown()
        }
        addObserver(AdversaryObserver(probe: probe, didStart: { _ in started.countDown() }))
    }

    override func execute() {
        probe.record(.execute(state))
        let (finishes, work) = flow.withLock { flow -> (Bool, Int) in
            flow.isExecuting = true
            return (flow.isResolved, flow.work)
        }
        executing.countDown()
        if finishes { finish(after: work) }
    }

    /// The operation's own end: finishes it while it executes, or as soon as it executes, after
    /// working `micros` µs.
    func resolve(working micros: Int = 0) {
        let finishes = flow.withLock { flow -> Bool in
            defer {
                flow.isResolved = true
                flow.work = micros
            }
            return flow.isExecuting && !flow.isResolved
        }
        if finishes { finish(after: micros) }
    }

    private func finish(after micros: Int) {
        if micros == 0 { finish() } else { stressAfter(micros) { self.finish() } }
    }

    /// Runs `body` in the `finished(errors:)` hook, after recording it; `false` (and `body` is
    /// dropped) when the hook already ran.
    func whenFinishing(_ body: @escaping @Sendable () -> Void) -> Bool {
        flow.withLock { flow in
            guard !flow.hasFinished else { return false }
            flow.onFinishing = body
            return true
        }
    }

    override func finished(errors: [any Error]) {
        probe.callback(.hook(errors.map(stressKey)))
        let body = flow.withLock { flow -> (@Sendable () -> Void)? in
            flow.hasFinished = true
            defer { flow.onFinishing = nil }
            return flow.onFinishing
        }
        body?()
    }
}

/// A group that records what happened to it, as ``AdversaryOperation`` does.
final class AdversaryGroup: GroupOperation, @unchecked Sendable {  // stored state: lets
    let probe = StressProbe()
    let completed = Latch()
    /// Released once `execute()` handed the children to the group's queue, or the group finished.
    let running = Latch()

    init(label: String, children: [Foundation.Operation]) {
        super.init(operations: children)
        name = label
        let probe = probe
        let completed = completed
        let running = running
        completionBlock = {
            probe.record(.completionBlock)
            completed.countDown()
            running.countDown()
        }
        addObserver(AdversaryObserver(probe: probe))
    }

    override func execute() {
        probe.record(.execute(state))
        super.execute()
        running.countDown()
    }

    override func finished(errors: [any Error]) {
        probe.callback(.hook(errors.map(stressKey)))
    }
}

/// Records every observer callback in a probe, with any two that overlap (S1).
struct AdversaryObserver: OperationObserver {
    let probe: StressProbe
    var didStart: (@Sendable (ConditionalOperation) -> Void)?

    init(probe: StressProbe, didStart: (@Sendable (ConditionalOperation) -> Void)? = nil) {
        self.probe = probe
        self.didStart = didStart
    }

    func operationDidStart(_ operation: ConditionalOperation) {
        probe.callback(.didStart) { didStart?(operation) }
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

/// A condition the harness answers: the first answer given (before or after the evaluation)
/// is the one it passes on, once; it remembers which.
final class AdversaryGate: OperationCondition, Sendable {
    private struct State {
        var answer: OperationConditionResult?
        var completion: (@Sendable (OperationConditionResult) -> Void)?
        var evaluations = 0
    }

    let name: String
    /// Released at the first evaluation.
    let evaluated = Latch()
    private let state = Locked(State())

    init(name: String) {
        self.name = name
    }

    var evaluations: Int { state.withLock { $0.evaluations } }

    /// The answer that counted, as a word: "satisfied", "failed", "skipped" or "none".
    var firstAnswer: String {
        switch state.withLock({ $0.answer }) {
        case .satisfied?: "satisfied"
        case .failed?: "failed"
        case .skipped?: "skipped"
        case nil: "none"
        }
    }

    func answer(_ result: OperationConditionResult) {
        let completion = state.withLock { state -> (@Sendable (OperationConditionResult) -> Void)? in
            guard state.answer == nil else { return nil }
            state.answer = result
            defer { state.completion = nil }
            return state.completion
        }
        completion?(result)
    }

    func evaluate(
        for operation: ConditionalOperation,
        completion: @escaping @Sendable (OperationConditionResult) -> Void
    ) {
        let answer = state.withLock { state -> OperationConditionResult? in
            state.evaluations += 1
            if state.answer == nil { state.completion = completion }
            return state.answer
        }
        evaluated.countDown()
        if let answer { completion(answer) }
    }
}
