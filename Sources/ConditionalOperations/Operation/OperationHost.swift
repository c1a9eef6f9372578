import ConditionalOperationsMachines

/// What the operation's machine, in a module of its own, stores of this module's types, and the
/// facts it asks of them: its code is specialised for these here.
enum OperationHost: OperationMachineHost {
    typealias Operation = ConditionalOperation
    typealias Queue = ConditionalOperationQueue
    typealias Condition = any OperationCondition
    typealias ConditionResult = OperationConditionResult
    typealias Observer = KeptObserver
    typealias Observers = ObserverList
    typealias Sink = any EventSink
    typealias SinkLog = ConditionalOperations.SinkLog

    /// Whether the start is announced by KVO `isExecuting`. Apple's Foundation needs it;
    /// swift-corelibs-foundation only records it for its own `start()`, which a
    /// `ConditionalOperation` replaces, and pays locks and string comparisons for each notification.
    /// (`-DAPPLE_FOUNDATION_PATHS` builds post it on Linux too.)
    static var postsExecutingKVO: Bool {
        #if canImport(ObjectiveC) || APPLE_FOUNDATION_PATHS
            true
        #else
            false
        #endif
    }

    /// Whether a plain queue re-tests the `false` answers it stored: swift-corelibs-foundation's
    /// does, on each pass (`-DAPPLE_FOUNDATION_PATHS` builds take Apple's side, which promises
    /// nothing of it).
    static var retestsStoredReadiness: Bool {
        #if canImport(ObjectiveC) || APPLE_FOUNDATION_PATHS
            false
        #else
            true
        #endif
    }

    static func answer(of result: OperationConditionResult) -> ConditionAnswer {
        switch result {
        case .satisfied: .satisfied
        case .failed(let error): .failed(error)
        case .skipped: .skipped
        }
    }

    static func hearsStart(_ observer: KeptObserver) -> Bool { observer.hearsStart }

    static func hearsStart(_ sink: any EventSink) -> Bool { sink.hearsStart }

    static func hearsInitialState(_ sink: any EventSink) -> Bool { sink.hearsInitialState }

    /// A timeline's recording, added first, is the log itself (``SinkLog``).
    static func makeSinkLog(for firstSink: any EventSink) -> ConditionalOperations.SinkLog {
        firstSink.timelineSink?.recording ?? ConditionalOperations.SinkLog()
    }

    static func appendConditionFailure(_ error: any Error, to errors: inout [any Error]) {
        errors.appendConditionFailure(error)
    }
}

/// The operation's machine, for this module's types.
typealias Machine = OperationStateMachine<OperationHost>

/// What only loggers and timelines hear of (``EventSink/send(_:)-(LogEvent)``).
typealias LogEvent = OperationLogEvent<any OperationCondition, OperationConditionResult>

extension ObserverList: OperationObservers {}

extension ConditionalOperation.State {
    /// The public name of the machine's state.
    @inline(__always)
    init(_ state: OperationState) {
        switch state {
        case .initialized: self = .initialized
        case .pending: self = .pending
        case .evaluatingConditions: self = .evaluatingConditions
        case .ready: self = .ready
        case .executing: self = .executing
        case .finishing: self = .finishing
        case .finished: self = .finished
        }
    }
}
