/// Who hears of the operation: its observers, its event sinks (which are not observers) and what
/// they are to be told, and the waiters run once it finished. Written by the events of several concerns
/// (configuration, `+Sinks`, `markFinished`), through these types' methods alone.
extension OperationStateMachine {
    /// The listeners themselves, words only; their byte-sized marks are ``ListenerMarks``, stored
    /// after the phase, where they fill what would be padding.
    public struct Listeners {
        @usableFromInline var observers: Host.Observers
        /// Run once finished, after every `operationDidFinish` observer returned.
        @usableFromInline var waiters: [Waiter]

        @inlinable init() {
            self.observers = Host.Observers()
            self.waiters = []
        }
        /// What the event sinks (`events` streams, loggers, timelines) are to be told; `nil` while
        /// there is none (see `+Sinks`).
        @usableFromInline var sinkLog: Host.SinkLog?

        @inlinable mutating func add(_ observer: Host.Observer) {
            observers.append(observer)
        }

        /// `sink` hears of the operation from now on, told `current` first (unless it is the
        /// first state, and the sink does not hear of that one).
        @inlinable mutating func addSink(_ sink: Host.Sink, toldOf current: OperationState) {
            // A timeline's recording, added first, is the log itself (``SinkLog``).
            let log = sinkLog ?? Host.makeSinkLog(for: sink)
            sinkLog = log
            log.add(sink)
            if current != .initialized || Host.hearsInitialState(sink) {
                log.tellCurrent(current, to: sink)
            }
        }

        /// The log of the sinks, taken out (``OperationStateMachine/takeEndedSinkLog()``).
        @inlinable mutating func takeSinkLog() -> Host.SinkLog? {
            defer { sinkLog = nil }
            return sinkLog
        }

        @inlinable mutating func add(_ waiter: Waiter) {
            waiters.append(waiter)
        }

        /// The wakes of `dependent`, taken out (``OperationStateMachine/removeWakes(of:)``).
        @inlinable mutating func removeWakes(of dependent: Host.Operation) -> [Waiter] {
            var removed: [Waiter] = []
            waiters.removeAll { waiter in
                guard case .wake(let woken) = waiter, woken === dependent else { return false }
                removed.append(waiter)
                return true
            }
            return removed
        }

        /// Finished: the observers and waiters, taken out, to be let go of outside the lock; the
        /// sink log stays, its last message not sent yet. Swapped out: neither is copied.
        @inlinable mutating func take() -> (observers: Host.Observers, waiters: [Waiter]) {
            var taken = (observers: Host.Observers(), waiters: [Waiter]())
            swap(&taken.observers, &observers)
            swap(&taken.waiters, &waiters)
            return taken
        }
    }

    /// The listeners' byte-sized state (see ``Listeners``).
    public struct ListenerMarks: Sendable {
        /// Some observer may act on `operationDidStart` (any but a `BlockObserver` without
        /// `didStart`).
        @usableFromInline var observersHearStart: Bool
        /// The last public state the event sinks were told of.
        @usableFromInline var sinksTold: OperationState

        @inlinable init() {
            self.observersHearStart = false
            self.sinksTold = OperationState.initialized
        }

        @inlinable mutating func added(_ observer: Host.Observer) {
            if Host.hearsStart(observer) { observersHearStart = true }
        }

        /// An event sink was added, told `current`; if `hearingStart`, it is sent `didStart`.
        @inlinable mutating func addedSink(toldOf current: OperationState, hearingStart: Bool) {
            if hearingStart { observersHearStart = true }
            sinksTold = current
        }

        @inlinable mutating func told(_ state: OperationState) {
            sinksTold = state
        }
    }

    @inlinable public var observersHearStart: Bool { listenerMarks.observersHearStart }
    @inlinable public var sinksTold: OperationState { listenerMarks.sinksTold }
}
