import ConditionalOperationsMachines
import Foundation
import Testing

@testable import ConditionalOperations

#if compiler(>=6.3) && (os(macOS) || os(Linux) || os(Windows))  // capturing exit tests: 6.3; no iOS
    extension ConditionalOperationsTests.CompositionTests {
        /// The (phase, event) pairs the tables of `AttemptStateMachineTests` leave out: the event
        /// cannot happen in that phase, and the machine stops the process naming both, in every
        /// build. With the tables, every (phase, event) pair is stated.
        @Suite struct AttemptStateMachineTrapTests {
            typealias Given = AttemptStateMachineTests.Given

            enum Event: String, Codable, CaseIterable, CustomStringConvertible {
                case start, nextDue, timerFired, attemptMade, cancel, attemptEnded, delayChosen, timerMade

                /// The phases of the tables, where it can happen.
                var possibleIn: Set<Given> {
                    switch self {
                    case .start: [.idle, .idleCancelled]
                    case .nextDue: [.due, .dueCancelled]
                    case .timerFired: [.waiting, .finished]
                    case .attemptMade: [.making, .makingCancelled]
                    case .cancel:
                        [.idle, .making, .running, .deciding, .due, .waitingForTimer, .waiting, .finished]
                    case .attemptEnded: [.running, .runningCancelled]
                    case .delayChosen: [.deciding, .decidingCancelled]
                    case .timerMade: [.waitingForTimer, .finished]
                    }
                }

                var description: String { rawValue }

                func happen(to machine: inout AttemptStateMachineTests.Machine) {
                    switch self {
                    case .start: _ = machine.start()
                    case .nextDue: _ = machine.nextDue()
                    case .timerFired: _ = machine.timerFired()
                    case .attemptMade: _ = machine.attemptMade("second")
                    case .cancel: _ = machine.cancel()
                    case .attemptEnded: _ = machine.attemptEnded(.goOn(2))
                    case .delayChosen: _ = machine.delayChosen(1)
                    case .timerMade: _ = machine.timerMade("timer")
                    }
                }
            }

            static let impossiblePairs = Event.allCases.flatMap { event in
                Given.allCases.filter { !event.possibleIn.contains($0) }.map { (event, $0) }
            }

            @Test(arguments: impossiblePairs)
            func anImpossibleEventNamesThePhaseAndTheEvent(event: Event, given: Given) async {
                let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                    [event, given] in
                    var machine = AttemptStateMachineTests.machine(given)
                    event.happen(to: &machine)
                }
                let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
                #expect(message.contains("\(event) in phase \(given.phaseName)"), "\(message)")
            }
        }
    }
#endif
