@testable import ConditionalOperations
@testable import ConditionalOperationsMachines

/// The table tests state a followup of several steps as a list of one-step followups,
/// `[.deliver, .announceReady]`. The library itself builds each followup once and merges none;
/// here two steps of one concern are a mistake of the test, which stops naming both.
extension Machine.Followup: ExpressibleByArrayLiteral {
    public init(arrayLiteral steps: Self...) {
        var releasesCategories = false
        var readiness: Readiness?
        var delivery: Delivery?
        var running: Running?
        for step in steps {
            releasesCategories = releasesCategories || step.releasesCategories
            readiness = Self.one(readiness, step.readiness)
            delivery = Self.one(delivery, step.delivery)
            running = Self.one(running, step.running)
        }
        self.init(
            releasesCategories: releasesCategories, readiness: readiness, delivery: delivery, running: running
        )
    }

    private static func one<Step: Equatable>(_ lhs: Step?, _ rhs: Step?) -> Step? {
        guard let lhs, let rhs else { return lhs ?? rhs }
        precondition(lhs == rhs, "a test's followup lists both \(lhs) and \(rhs), steps of one concern")
        return lhs
    }
}

/// One-step followups the library builds only through `followup(releasing:told:_:)`, named for
/// the tables.
extension Machine.Followup {
    static let admitted = Self(readiness: .admitted)
    static let deliver = Self(delivery: .deliver)
    static let announceStart = Self(delivery: .announceStart)
    static let launchLater = Self(running: .launchLater)
    static let executeNow = Self(running: .executeNow)
}
