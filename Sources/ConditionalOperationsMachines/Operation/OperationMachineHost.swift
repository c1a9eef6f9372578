import Foundation

/// What the operation's machine knows of the types around it, which live in the library's public
/// module: it stores them and hands them out in its actions, and asks them the few facts its
/// events decide on. The public module names them once (`OperationHost`); the machine's code is
/// `@inlinable`, specialised for them there, so that crossing the module costs no call.
public protocol OperationMachineHost {
    /// The operation: a parent running it (S7 in groups), a dependent woken once it finished.
    associatedtype Operation: AnyObject & Sendable
    /// The `ConditionalOperationQueue` that admitted it.
    associatedtype Queue: AnyObject & Equatable & Sendable
    associatedtype Condition: Sendable
    associatedtype ConditionResult: Sendable
    associatedtype Observer
    associatedtype Observers: OperationObservers where Observers.Observer == Observer
    associatedtype Sink
    associatedtype SinkLog: OperationSinkLog
    where SinkLog.Sink == Sink, SinkLog.Condition == Condition, SinkLog.ConditionResult == ConditionResult

    /// Foundation posts KVO `isExecuting` as an operation starts (Apple's): the start is then
    /// announced first, never run at once.
    static var postsExecutingKVO: Bool { get }
    /// Foundation's plain queue reads `isReady` again, on each pass, of every operation whose
    /// stored answer is `false` and whose dependencies it counts as finished
    /// (swift-corelibs-foundation's): a stale `false` stored after the `true` of the query that
    /// made an operation ready is found by the next pass that reaches it, while Foundation counts
    /// its dependencies as finished, which the operation sees as a query while ready
    /// (``ReadinessAnnouncements``). Apple's queue promises no such re-test.
    static var retestsStoredReadiness: Bool { get }
    /// What a condition's result says.
    static func answer(of result: ConditionResult) -> ConditionAnswer
    /// The observer may act on `operationDidStart`.
    static func hearsStart(_ observer: Observer) -> Bool
    /// The sink is told `didStart`.
    static func hearsStart(_ sink: Sink) -> Bool
    /// The sink is told the state `initialized` when it is added in it.
    static func hearsInitialState(_ sink: Sink) -> Bool
    /// The log of an operation's sinks, made as the first one is added (a timeline's recording
    /// may be it).
    static func makeSinkLog(for firstSink: Sink) -> SinkLog
    /// Records a failed condition's error among `errors` (merging what two conditions report
    /// of one dependency).
    static func appendConditionFailure(_ error: any Error, to errors: inout [any Error])
}

/// What a condition answered.
public enum ConditionAnswer: Sendable {
    case satisfied
    case failed(any Error)
    case skipped
}

/// The observers of an operation, in the order they were added.
public protocol OperationObservers {
    associatedtype Observer
    init()
    var count: Int { get }
    mutating func append(_ observer: Observer)
    /// Those after the first `count`, which were told already.
    func dropFirst(_ count: Int) -> [Observer]
}

/// The log of an operation's event sinks: what they are to be told, written by the machine under
/// the operation's lock and sent by its storage before unlocking.
public protocol OperationSinkLog: AnyObject {
    associatedtype Sink
    /// The sinks, taken out of the log for its last message.
    associatedtype Sinks
    associatedtype Condition: Sendable
    associatedtype ConditionResult: Sendable
    /// Something was written since the last send.
    var hasMessages: Bool { get }
    func add(_ sink: Sink)
    /// The public state changed to `state`.
    func tell(state: OperationState)
    /// A callback was queued: `didStart`, `didProduce` or `didCancel`.
    func tell(callback: OperationEffect)
    func tell(_ event: OperationLogEvent<Condition, ConditionResult>)
    /// The state now, to `sink`, just added.
    func tellCurrent(_ state: OperationState, to sink: Sink)
    func takeSinks() -> Sinks
    /// The end, with `errors`, to `sinks`, taken out of the log.
    func tellEnd(_ errors: [any Error], to sinks: Sinks)
}
