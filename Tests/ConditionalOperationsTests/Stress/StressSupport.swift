import Dispatch
import Foundation

@testable import ConditionalOperations

/// The errors a stress batch produces on purpose; any other error in `errors` is a failure.
struct StressError: Error, Hashable, CustomStringConvertible {
    enum Kind: String {
        /// A ``StressCondition`` answered `.failed`.
        case condition
        /// A `BlockCondition` threw.
        case thrown
        /// The operation finished itself with an error.
        case finish
        /// The harness cancelled it with `cancel(with:)`.
        case cancel
        /// The harness finished it from outside with an error.
        case externalFinish
    }

    let kind: Kind
    let operation: Int
    var index = 0

    var description: String { "\(kind.rawValue)#\(operation).\(index)" }
}

/// How an error is compared: the description of a library or stress error, which names the
/// operation (and condition) it belongs to.
func stressKey(_ error: any Error) -> String {
    switch error {
    case let error as StressError: error.description
    case let error as OperationError: "OperationError: \(error)"
    default: "foreign: \(error)"
    }
}

/// Runs `work` on another thread after `micros` µs (0: at once).
func stressAfter(_ micros: Int, _ work: @escaping @Sendable () -> Void) {
    if micros == 0 {
        DispatchQueue.global().async(execute: work)
    } else {
        DispatchQueue.global().asyncAfter(deadline: .now() + .microseconds(micros), execute: work)
    }
}

/// A weak reference with a label, to find what outlived a batch (S12).
struct StressWeakReference: @unchecked Sendable {  // `object` is only read after the batch, by one task
    weak var object: AnyObject?
    let label: String
}

extension [StressWeakReference] {
    /// The labels of the objects still alive once every one was let go of, or after ten seconds:
    /// Foundation drops its references a moment after `isFinished` (``waitUntil(seconds:_:)``).
    func outlived() async -> [String] {
        await waitUntil { allSatisfy { $0.object == nil } }
        return filter { $0.object != nil }.map(\.label)
    }
}

/// What every part of one batch shares: the violations seen while it runs, the operations
/// executing in each category, and the objects to check for leaks.
final class StressContext: Sendable {
    let plan: StressPlan
    /// Produced operations and condition dependencies, which the batch must also see finish.
    let extraWork = Latch(count: 0)
    private let violations = Locked<[String]>([])
    private let holders = Locked<[Int: Int]>([:])
    private let tracked = Locked<[StressWeakReference]>([])

    init(plan: StressPlan) {
        self.plan = plan
    }

    var recordedViolations: [String] { violations.withLock { $0 } }

    var trackedReferences: [StressWeakReference] { tracked.withLock { $0 } }

    func violation(_ message: String) {
        violations.withLock { $0.append(message) }
    }

    func track(_ object: AnyObject, _ label: String) {
        tracked.withLock { $0.append(StressWeakReference(object: object, label: label)) }
    }

    func categoryName(_ category: Int) -> String {
        "stress.\(String(plan.seed, radix: 16)).c\(category)"
    }

    /// `operation` executes (from `operationDidStart` to its `finished(errors:)` hook) in `categories` (S7).
    func enter(_ operation: Int, categories: [Int]) {
        let clashes = holders.withLock { holders -> [(Int, Int)] in
            var clashes: [(Int, Int)] = []
            for category in categories {
                if let holder = holders[category] { clashes.append((category, holder)) }
                holders[category] = operation
            }
            return clashes
        }
        for (category, holder) in clashes {
            violation("S7: #\(operation) started while #\(holder) executes in category \(category)")
        }
    }

    func leave(_ operation: Int, categories: [Int]) {
        holders.withLock { holders in
            for category in categories where holders[category] == operation { holders[category] = nil }
        }
    }

    /// The operation executing in `category`, for stall reports.
    func holder(of category: Int) -> Int? {
        holders.withLock { $0[category] }
    }
}

/// What happened to one operation, in order, with any two callbacks that overlapped (S1).
final class StressProbe: Sendable {
    enum Event: Equatable, Sendable, CustomStringConvertible {
        case didStart
        case didProduce
        case didCancel([String])
        case didFinish([String])
        /// `execute()` was entered in this state.
        case execute(ConditionalOperation.State)
        /// The `finished(errors:)` hook.
        case hook([String])
        case completionBlock

        var description: String {
            switch self {
            case .didStart: "didStart"
            case .didProduce: "didProduce"
            case .didCancel(let errors): "didCancel\(errors)"
            case .didFinish(let errors): "didFinish\(errors)"
            case .execute(let state): "execute(in \(state))"
            case .hook(let errors): "finished(errors: \(errors))"
            case .completionBlock: "completionBlock"
            }
        }
    }

    private struct State {
        var events: [Event] = []
        var active = 0
        var overlaps: [String] = []
    }

    private let state = Locked(State())

    var events: [Event] { state.withLock { $0.events } }
    var overlaps: [String] { state.withLock { $0.overlaps } }

    /// Records a callback and runs `body` inside it; notes another callback running meanwhile.
    func callback(_ event: Event, _ body: () -> Void = {}) {
        state.withLock { state in
            state.active += 1
            if state.active > 1 { state.overlaps.append("\(event) overlapped another callback") }
            state.events.append(event)
        }
        body()
        state.withLock { $0.active -= 1 }
    }

    /// Records an event that may run beside callbacks (`execute()`, the completion block).
    func record(_ event: Event) {
        state.withLock { $0.events.append(event) }
    }

    var hasStarted: Bool { events.contains(.didStart) }
}

/// What a ``StressCondition`` saw, kept by its operation for checks and stall reports after the
/// condition itself was released.
final class StressConditionStatus: Sendable {
    struct State {
        var dependencyRequests = 0
        var dependency: Foundation.Operation?
        var evaluations = 0
        var answered = false
    }

    let name: String
    let plan: StressPlan.ProbePlan
    let wrapper: StressPlan.Wrapper
    private let state = Locked(State())

    init(name: String, plan: StressPlan.ProbePlan, wrapper: StressPlan.Wrapper) {
        self.name = name
        self.plan = plan
        self.wrapper = wrapper
    }

    var current: State { state.withLock { $0 } }

    func update(_ body: (inout State) -> Void) {
        state.withLock { body(&$0) }
    }

    var isSilent: Bool { wrapper == .silent || wrapper == .silentNegated }
    var isNegated: Bool { wrapper == .negated || wrapper == .silentNegated }
}
