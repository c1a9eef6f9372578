import ConditionalOperations
import Foundation

/// The kinds of queue a stress batch runs its operations on. A plan draws a kind per queue.
///
/// `STRESS_QUEUE_KINDS=OperationQueue,ConditionalOperationQueue` picks the kinds by name; the
/// default is ``defaultKinds``. Making a kind part of every run is one line there; a new kind is
/// one line in ``available``. Seeds keep their shape whichever kinds are used; only the kind each
/// queue gets changes.
struct StressQueueKind: Sendable {
    let name: String
    let make: @Sendable () -> OperationQueue

    static let available: [StressQueueKind] = [
        StressQueueKind(name: "OperationQueue") { OperationQueue() },
        StressQueueKind(name: "ConditionalOperationQueue") { ConditionalOperationQueue() },
    ]

    static let defaultKinds = ["OperationQueue", "ConditionalOperationQueue"]

    static let all: [StressQueueKind] = {
        let names =
            ProcessInfo.processInfo.environment["STRESS_QUEUE_KINDS"]?
            .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } ?? defaultKinds
        let kinds = available.filter { names.contains($0.name) }
        return kinds.isEmpty ? available.filter { defaultKinds.contains($0.name) } : kinds
    }()
}
