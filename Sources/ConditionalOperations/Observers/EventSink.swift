import ConditionalOperationsMachines
import Foundation

/// Event sinks: listeners told of every state change and callback as it happens, in the machine's
/// order (S1, S16). The machine only writes what they are to be told into its ``SinkLog``; the
/// operation's storage sends it before unlocking, in the same trip (`MachineLock`). A sink runs no
/// user code there: an `events` stream resumes its consumer's task, a logger's sink queues the
/// record for the logger's own serial queue. Sinks are not among the observers, which the runner
/// calls: they hear everything as messages.
protocol EventSink {
    /// It is told `didStart`: the operation's start then goes through its callbacks (an `events`
    /// stream yields it in order), where one that nobody hears of executes at once. A logger and a
    /// timeline learn the start from the state `executing`.
    var hearsStart: Bool { get }
    /// It is told the state `initialized` when it is added in it (an `events` stream yields it, a
    /// logger logs it; a timeline draws nothing for it).
    var hearsInitialState: Bool { get }
    /// It, if it is a timeline's: sent to directly, without the existential (``SinkList``).
    var timelineSink: TimelineSink? { get }
    func send(_ event: OperationEvent)
    /// The operation finished: nothing follows.
    func end()
    /// Condition answers and category waits, which only loggers hear of.
    func send(_ event: LogEvent)
}

extension EventSink {
    var hearsStart: Bool { false }
    var hearsInitialState: Bool { true }
    var timelineSink: TimelineSink? { nil }
    func send(_ event: LogEvent) {}
}
