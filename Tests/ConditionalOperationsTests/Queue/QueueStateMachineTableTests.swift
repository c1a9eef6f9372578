import ConditionalOperationsMachines
import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests {
    /// The queue's state machine as tables, without threads: each table is one event tried in
    /// every state it can happen in, (state, event) → (next state, action), and reads as the
    /// specification of that event.
    @Suite struct QueueStateMachineTableTests {
        typealias Machine = QueueStateMachine

        /// The states an event is tried in, each reached by the events that lead there.
        enum Given: String, Codable, CaseIterable, CustomStringConvertible {
            /// A new queue: no barrier, limit, suspension or shutdown.
            case open
            /// One barrier not finished.
            case barrier
            /// `maxConcurrentOperationCount` 1.
            case limited
            case suspended
            case shutDown

            var description: String { rawValue }
        }

        static let barrier = BlockOperation()

        static func machine(_ given: Given) -> Machine {
            var machine = Machine()
            switch given {
            case .open: break
            case .barrier: machine.addBarrier(barrier)
            case .limited: _ = machine.setLimit(1)
            case .suspended: _ = machine.setSuspended(true)
            case .shutDown: _ = machine.shutDown()
            }
            return machine
        }

        /// The machine's state, in a form a table can hold.
        static func describe(_ machine: Machine) -> String {
            var parts = ["\(machine.life)"]
            if !machine.barriers.isEmpty { parts.append("\(machine.barriers.count) barrier") }
            if machine.limit != OperationQueue.defaultMaxConcurrentOperationCount {
                parts.append("limit \(machine.limit)")
            }
            if machine.isSuspended { parts.append("suspended") }
            if !machine.waitingPlain.isEmpty { parts.append("\(machine.waitingPlain.count) waiting plain") }
            if !machine.unslottedPlain.isEmpty {
                parts.append("\(machine.unslottedPlain.count) unslotted plain")
            }
            return parts.joined(separator: ", ")
        }

        static func describe(_ action: Machine.AdmitAction) -> String {
            switch action {
            case .register: return "register"
            case .prepare(let barriers, let isShutDown):
                var parts: [String] = []
                if !barriers.isEmpty { parts.append("\(barriers.count) barrier") }
                if isShutDown { parts.append("shut down") }
                return "prepare(\(parts.joined(separator: ", ")))"
            }
        }

        @Test(arguments: [
            (Given.open, false, "register", "open"),
            // A delegate or a logger (the storage's) is told outside the lock.
            (.open, true, "prepare()", "open"),
            (.barrier, false, "prepare(1 barrier)", "open, 1 barrier"),
            (.barrier, true, "prepare(1 barrier)", "open, 1 barrier"),
            (.limited, false, "register", "open, limit 1"),
            (.suspended, false, "register", "open, suspended"),
            // S21: an operation added once the queue is shut down is cancelled, outside the lock.
            (.shutDown, false, "prepare(shut down)", "shut down"),
            (.shutDown, true, "prepare(shut down)", "shut down"),
        ])
        func S21_admit(given: Given, listened: Bool, action: String, next: String) {
            var machine = Self.machine(given)
            #expect(Self.describe(machine.admit(BlockOperation(), listened: listened)) == action)
            #expect(Self.describe(machine) == next)
        }

        /// A barrier block waits for the barrier blocks added before it, never for one added after
        /// it (two waiting for each other would never run); any other operation waits for all.
        @Test func aBarrierWaitsForTheBarriersBeforeIt() {
            var machine = Machine()
            let first = BlockOperation()
            let second = BlockOperation()
            machine.addBarrier(first)
            machine.addBarrier(second)
            #expect(machine.barriers(awaitedBy: first).isEmpty)
            #expect(
                machine.barriers(awaitedBy: second).map(ObjectIdentifier.init) == [ObjectIdentifier(first)])
            #expect(machine.barriers(awaitedBy: BlockOperation()).count == 2)
        }

        /// A plain operation's facts, by name.
        enum Facts: String, Codable, CaseIterable, CustomStringConvertible {
            case cancelled, ready, notReady, awaitingDependencies, cancelledAwaitingDependencies

            var facts: Machine.PlainFacts {
                switch self {
                case .cancelled: .init(isCancelled: true, isReady: false, awaitsDependencies: false)
                case .ready: .init(isCancelled: false, isReady: true, awaitsDependencies: false)
                case .notReady: .init(isCancelled: false, isReady: false, awaitsDependencies: false)
                case .awaitingDependencies:
                    .init(isCancelled: false, isReady: false, awaitsDependencies: true)
                case .cancelledAwaitingDependencies:
                    .init(isCancelled: true, isReady: false, awaitsDependencies: true)
                }
            }

            var description: String { rawValue }
        }

        @Test(arguments: [
            // Cancelled: it starts at once and finishes, as on Foundation's queue.
            (Given.open, Facts.cancelled, Machine.PlainRoute.submit, "open"),
            (.open, .cancelledAwaitingDependencies, .submit, "open"),
            (.open, .ready, .submit, "open"),
            // Only Foundation's queue hears when its own `isReady` changes.
            // Without a slot: a limit set later cannot count it (the queue says so).
            (.open, .notReady, .handToFoundation, "open, 1 unslotted plain"),
            // Without a limit to share, Foundation's scheduler runs it once its dependencies finished.
            (.open, .awaitingDependencies, .handToFoundation, "open, 1 unslotted plain"),
            (.limited, .cancelled, .submit, "open, limit 1"),
            (.limited, .ready, .submit, "open, limit 1"),
            // With a limit, a slot first: given one, Foundation's scheduler runs it once its own
            // `isReady` says yes, and the slot stays its own until it finished.
            (.limited, .notReady, .submit, "open, limit 1"),
            // With a limit, the queue submits it once its dependencies finished, in its slots.
            (.limited, .awaitingDependencies, .awaitDependencies, "open, limit 1, 1 waiting plain"),
            (.suspended, .awaitingDependencies, .handToFoundation, "open, suspended, 1 unslotted plain"),
            (.shutDown, .cancelled, .submit, "shut down"),
        ])
        func S9_routePlain(given: Given, facts: Facts, route: Machine.PlainRoute, next: String) {
            var machine = Self.machine(given)
            let answer = machine.routePlain(BlockOperation(), facts: facts.facts)
            #expect(answer == route)
            #expect(Self.describe(machine) == next)
        }

        /// Whether the plain operation still waits in the machine when its dependencies finished.
        enum Waiting: String, Codable, CaseIterable, CustomStringConvertible {
            case waiting
            /// `cancelAllOperations()` or a shutdown took it meanwhile.
            case taken

            var description: String { rawValue }
        }

        @Test(arguments: [
            (Waiting.waiting, Facts.ready, Machine.PlainRoute.submit, "open, limit 1"),
            (.waiting, .cancelled, .submit, "open, limit 1"),
            // Its own `isReady` says no still (Foundation counts the last finish after the queue
            // heard of it): a slot first all the same, never Foundation's scheduler alone.
            (.waiting, .notReady, .submit, "open, limit 1"),
            // A dependency added meanwhile: it waits for that one too.
            (.waiting, .awaitingDependencies, .awaitDependencies, "open, limit 1, 1 waiting plain"),
            (.waiting, .cancelledAwaitingDependencies, .submit, "open, limit 1"),
            (.taken, .ready, .none, "open, limit 1"),
            (.taken, .cancelled, .none, "open, limit 1"),
            (.taken, .notReady, .none, "open, limit 1"),
            (.taken, .cancelledAwaitingDependencies, .none, "open, limit 1"),
        ])
        func S9_plainDependenciesFinished(
            waiting: Waiting, facts: Facts, route: Machine.PlainRoute, next: String
        ) {
            var machine = Self.machine(.limited)
            let operation = BlockOperation()
            #expect(
                machine.routePlain(operation, facts: Facts.awaitingDependencies.facts) == .awaitDependencies)
            if waiting == .taken {
                operation.cancel()
                let answer = machine.takeCancelledPlain([operation])
                #expect(answer == [operation])
            }
            let answer2 = machine.plainDependenciesFinished(operation, facts: facts.facts)
            #expect(answer2 == route)
            #expect(Self.describe(machine) == next)
        }

        @Test func anUnslottedPlainOperationIsForgottenOnceItFinished() {
            var machine = Self.machine(.open)
            let operation = BlockOperation()
            #expect(
                machine.routePlain(operation, facts: Facts.awaitingDependencies.facts) == .handToFoundation)
            #expect(Self.describe(machine) == "open, 1 unslotted plain")
            machine.plainFinished(BlockOperation())
            #expect(Self.describe(machine) == "open, 1 unslotted plain", "another operation's finish")
            machine.plainFinished(operation)
            #expect(Self.describe(machine) == "open")
        }

        @Test func S9_takeCancelledPlainTakesOnlyTheWaitingOnes() {
            var machine = Self.machine(.limited)
            let waiting = BlockOperation()
            _ = machine.routePlain(waiting, facts: Facts.awaitingDependencies.facts)
            let answer = machine.takeCancelledPlain([waiting, BlockOperation()])
            #expect(answer == [waiting])
            let answer2 = machine.takeCancelledPlain([waiting])
            #expect(answer2 == [])
            #expect(Self.describe(machine) == "open, limit 1")
        }

        @Test(arguments: Given.allCases)
        func S21_shutDown(given: Given) {
            var machine = Self.machine(given)
            let before = Self.describe(machine)
            let expected: Machine.ShutdownAction = given == .shutDown ? .none : .begin
            let answer = machine.shutDown()
            #expect(answer == expected)
            #expect(Self.describe(machine) == before.replacingOccurrences(of: "open", with: "shut down"))
        }

        @Test(arguments: Given.allCases)
        func barriersComeAndGo(given: Given) {
            var machine = Self.machine(given)
            let before = Self.describe(machine)
            let barrier = BlockOperation()
            machine.addBarrier(barrier)
            #expect(machine.barriers.last === barrier)
            machine.barrierFinished(barrier)
            #expect(Self.describe(machine) == before)
        }

        /// The logger's channel is the storage's, beside the machine: the one replaced is handed
        /// back, to be let go of outside the lock.
        @Test func aLoggerReplacedIsHandedBack() {
            let storage = QueueStorage()
            let channel = LogChannel(BlockLogger { _ in })
            let replaced = storage.setLogChannel(channel)
            #expect(replaced == nil)
            let answer = storage.setLogChannel(nil)
            #expect(answer === channel)
        }

        @Test(arguments: [
            (Given.open, 0, 2, 0),
            // One slot: the first runs, the second waits until it finished.
            (.limited, 1, 1, 1),
            (.suspended, 2, 0, 0),
        ])
        func limitsAndSuspension_holdOperationsBack(
            given: Given, waiting: Int, runNow: Int, runOnSlotFreed: Int
        ) {
            var machine = Self.machine(given)
            let operations = [BlockOperation(), BlockOperation()]
            if machine.submitAll(count: operations.count) {
                #expect(waiting == 0)
                let answer = machine.slotFreed()
                #expect(answer == [])
                return
            }
            let run = machine.submit(operations.map { ($0, .normal) })
            #expect(run.count == runNow)
            #expect(operations.count - run.count == waiting)
            guard !run.isEmpty else { return }  // no slot to free
            let answer2 = machine.slotFreed()
            #expect(answer2.count == runOnSlotFreed)
        }

        @Test func limitsAndSuspension_liftedRunTheWaitingOnes() {
            var machine = Self.machine(.suspended)
            _ = machine.setLimit(1)
            let operations = [BlockOperation(), BlockOperation()]
            let answer = machine.submit(operations.map { ($0, .normal) })
            #expect(answer == [])
            let answer2 = machine.setSuspended(false)
            #expect(answer2 == [operations[0]])
            let answer3 = machine.setLimit(OperationQueue.defaultMaxConcurrentOperationCount)
            #expect(answer3 == [operations[1]])
            #expect(Self.describe(machine) == "open")
        }

        #if compiler(>=6.3) && (os(macOS) || os(Linux) || os(Windows))  // capturing exit tests: 6.3; no iOS
            @Test(arguments: [Given.open, .barrier, .shutDown])
            func anImpossibleEventNamesTheStateAndTheEvent(given: Given) async {
                let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                    [given] in
                    var machine = QueueStateMachineTableTests.machine(given)
                    machine.barrierFinished(BlockOperation())
                }
                let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
                let state = given == .shutDown ? "shut down" : "open"
                #expect(message.contains("barrierFinished in state \(state)"), "\(message)")
            }
        #endif
    }
}
