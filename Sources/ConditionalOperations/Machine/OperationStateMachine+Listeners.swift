/// Who hears of the operation: its observers (the event sinks among them), what they are to be
/// told, and the waiters run once it finished. Written by the events of several concerns
/// (configuration, `+Sinks`, `markFinished`), through these types' methods alone.
extension OperationStateMachine {
    /// The listeners themselves, words only; their byte-sized marks are ``ListenerMarks``, stored
    /// after the phase, where they fill what would be padding.
    struct Listeners {
        private(set) var observers = ObserverList()
        /// Run once finished, after every `operationDidFinish` observer returned.
        private(set) var waiters: [Waiter] = []
        /// What the event sinks (`events` streams, loggers, timelines) are to be told; `nil` while
        /// there is none (see `+Sinks`).
        private(set) var sinkLog: SinkLog?

        mutating func add(_ observer: any OperationObserver) {
            observers.append(observer)
        }

        /// `sink` hears of the operation from now on, told `current` first (unless it is the
        /// first state, and the sink does not hear of that one).
        mutating func addSink(_ sink: any EventSink, toldOf current: ConditionalOperation.State) {
            // A timeline's recording, added first, is the log itself (``SinkLog``).
            let log = sinkLog ?? sink.timelineSink?.recording ?? SinkLog()
            sinkLog = log
            log.add(sink)
            if current != .initialized || sink.hearsInitialState {
                log.tellCurrent(current, to: sink)
            }
        }

        /// The log of the sinks, taken out (``OperationStateMachine/takeEndedSinkLog()``).
        mutating func takeSinkLog() -> SinkLog? {
            defer { sinkLog = nil }
            return sinkLog
        }

        mutating func add(_ waiter: Waiter) {
            waiters.append(waiter)
        }

        /// The wakes of `dependent`, taken out (``OperationStateMachine/removeWakes(of:)``).
        mutating func removeWakes(of dependent: ConditionalOperation) -> [Waiter] {
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
        mutating func take() -> (observers: ObserverList, waiters: [Waiter]) {
            var taken = (observers: ObserverList(), waiters: [Waiter]())
            swap(&taken.observers, &observers)
            swap(&taken.waiters, &waiters)
            return taken
        }
    }

    /// The listeners' byte-sized state (see ``Listeners``).
    struct ListenerMarks {
        /// Some observer may act on `operationDidStart` (any but a `BlockObserver` without
        /// `didStart`).
        private(set) var observersHearStart = false
        /// The last public state the event sinks were told of.
        private(set) var sinksTold = ConditionalOperation.State.initialized

        mutating func added(_ observer: any OperationObserver) {
            if (observer as? BlockObserver)?.hearsStart ?? true { observersHearStart = true }
        }

        /// An event sink was added, told `current`; if `hearingStart`, it is sent `didStart`.
        mutating func addedSink(toldOf current: ConditionalOperation.State, hearingStart: Bool) {
            if hearingStart { observersHearStart = true }
            sinksTold = current
        }

        mutating func told(_ state: ConditionalOperation.State) {
            sinksTold = state
        }
    }

    var observersHearStart: Bool { listenerMarks.observersHearStart }
    var sinksTold: ConditionalOperation.State { listenerMarks.sinksTold }
}
