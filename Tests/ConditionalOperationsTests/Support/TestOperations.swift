import Foundation

@testable import ConditionalOperations

struct TestError: Error, Equatable {
    let id: Int
    init(_ id: Int = 0) { self.id = id }
}

/// Counts `execute()` calls and finishes according to `behaviour`.
final class ProbeOperation: ConditionalOperation, @unchecked Sendable {  // stored state: Counter, Mutex
    enum Behaviour: Sendable {
        case finishAtOnce
        case finishLater
        case never
        case finishWith([TestError])
    }

    let behaviour: Behaviour
    let executions = Counter()
    /// Released when `execute()` begins.
    let executing = Latch()
    private let cancellingIsFinishing: Bool
    let hooks = Recorder()

    init(_ behaviour: Behaviour = .finishAtOnce, finishesWhenCancelled: Bool = true) {
        self.behaviour = behaviour
        self.cancellingIsFinishing = finishesWhenCancelled
        super.init()
    }

    override var finishesWhenCancelled: Bool { cancellingIsFinishing }

    override func execute() {
        executions.increment()
        executing.countDown()
        switch behaviour {
        case .finishAtOnce: finish()
        case .finishLater: DispatchQueue.global().async { self.finish() }
        case .never: break
        case .finishWith(let errors): finish(errors: errors)
        }
    }

    override func finished(errors: [any Error]) {
        hooks.record("finished(\(errors.count))")
    }
}

/// A condition that answers later, from another thread (a test double; the library has
/// `AsyncCondition` for async closures).
struct LaterCondition: OperationCondition {
    let result: OperationConditionResult

    init(_ result: OperationConditionResult = .satisfied) { self.result = result }

    func evaluate(
        for operation: ConditionalOperation,
        completion: @escaping @Sendable (OperationConditionResult) -> Void
    ) {
        let result = self.result
        DispatchQueue.global().async { completion(result) }
    }
}

/// A latch released when every operation's completion block ran; set it up before enqueuing.
func completionLatch(_ operations: [Foundation.Operation]) -> Latch {
    let latch = Latch(count: operations.count)
    for operation in operations { operation.completionBlock = { latch.countDown() } }
    return latch
}

extension OperationQueue {
    /// `addOperations(_:waitUntilFinished:)` is unavailable from async code on Linux.
    func add(_ operations: [Foundation.Operation]) {
        for operation in operations { addOperation(operation) }
    }
}

extension OperationError.FailedDependency {
    /// The dependency a test expects to be named: equality ignores which operation it was.
    static func expected(_ name: String, _ errors: [any Error] = [], cancelled: Bool = false) -> Self {
        Self(name: name, errors: errors, isCancelled: cancelled, id: ObjectIdentifier(Self.self))
    }
}
