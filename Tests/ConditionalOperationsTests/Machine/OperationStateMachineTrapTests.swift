import Foundation
import Testing

@testable import ConditionalOperations
@testable import ConditionalOperationsMachines

#if compiler(>=6.3) && (os(macOS) || os(Linux) || os(Windows))  // capturing exit tests: 6.3; no iOS
    extension ConditionalOperationsTests {
        /// The (phase, event) pairs the tables of `OperationStateMachineTableTests` leave out: the
        /// event cannot happen in that phase, and the machine stops the process naming both, in
        /// every build. With the tables, every (phase, event) pair is stated.
        @Suite struct OperationStateMachineTrapTests {
            typealias Given = OperationStateMachineTableTests.Given

            /// The events that trap somewhere, each with the phases it traps in.
            enum Event: String, Codable, CaseIterable, CustomStringConvertible {
                case conditionDependenciesAdded, endInlineEvaluation, conditionEvaluated
                case categoriesGranted, endInlineAcquisition, launchDeferred, markFinished, drained

                var impossibleIn: [Given] {
                    switch self {
                    case .conditionDependenciesAdded:
                        [.initialized, .pendingStarted, .evaluating, .requesting, .acquiring]
                    case .endInlineEvaluation:
                        [.initialized, .pendingStarted, .pendingAsking, .requesting, .acquiring]
                    case .conditionEvaluated: [.initialized, .pendingStarted, .pendingAsking]
                    case .categoriesGranted, .endInlineAcquisition:
                        [.initialized, .pendingStarted, .pendingAsking, .evaluating]
                    case .launchDeferred:
                        [.initialized, .pendingStarted, .pendingAsking, .evaluating, .requesting, .acquiring]
                    case .markFinished: Given.allCases.filter { $0 != .finishing }
                    case .drained: Given.allCases.filter { $0 != .draining }
                    }
                }

                /// How the trap's message names the event.
                var description: String { self == .drained ? "drained(errors:)" : rawValue }

                func happen(to machine: inout Machine) {
                    switch self {
                    case .conditionDependenciesAdded: _ = machine.conditionDependenciesAdded(any: false)
                    case .endInlineEvaluation: _ = machine.endInlineEvaluation(context: .callback)
                    case .conditionEvaluated: _ = machine.conditionEvaluated(at: 0, .satisfied)
                    case .categoriesGranted: _ = machine.categoriesGranted()
                    case .endInlineAcquisition:
                        _ = machine.endInlineAcquisition(.granted, context: .callback)
                    case .launchDeferred: _ = machine.launchDeferred()
                    case .markFinished: _ = machine.markFinished(notified: 1)
                    case .drained: _ = machine.drained(errors: [])
                    }
                }
            }

            static let impossiblePairs = Event.allCases.flatMap { event in
                event.impossibleIn.map { (event, $0) }
            }

            /// How the trap's message names the phase a given machine is in.
            static func phaseName(_ given: Given) -> String {
                switch given {
                case .pendingStarted, .pendingAsking: "pending"
                case .requesting: "acquiring"
                case .initialized, .evaluating, .acquiring, .ready, .executing, .draining, .finishing,
                    .finished:
                    given.rawValue
                }
            }

            @Test(arguments: impossiblePairs)
            func anImpossibleEventNamesThePhaseAndTheEvent(event: Event, given: Given) async {
                let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                    [event, given] in
                    var machine = OperationStateMachineTableTests.machine(given)
                    event.happen(to: &machine)
                }
                let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
                #expect(message.contains("\(event) in phase \(Self.phaseName(given))"), "\(message)")
            }
        }
    }
#endif
