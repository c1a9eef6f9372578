import Foundation

/// The vocabulary the events of ``OperationStateMachine`` share. Each event's own action is
/// declared just above the event; what those actions have in common is here.
extension OperationStateMachine {
    /// A callback, delivered outside the lock by one thread at a time, in order (``EffectQueue``).
    enum Effect {
        /// `operationDidStart`, once the start was announced by KVO `isExecuting`
        /// (``OperationStateMachine/startAnnounced()``).
        case didStart
        case didProduce(Foundation.Operation)
        case didCancel([any Error])
        /// The `finished(errors:)` hook, `operationDidFinish`, the release of exclusivity
        /// categories, then KVO to `finished`.
        case finish([any Error], wasExecuting: Bool, releasesCategories: Bool)
    }

    /// The work an action leaves to the runner, once unlocked: at most one step of each concern,
    /// taken in this order (``ConditionalOperation/perform(_:)`` switches over each).
    ///
    /// Events combine their steps (a cancel queues `didCancel`, withdraws a category request and
    /// makes the operation ready): two different steps of one concern would be a contradiction,
    /// and stop the process naming both.
    struct Followup: Equatable, ExpressibleByArrayLiteral {
        /// Give back (or withdraw the request for) the exclusivity categories.
        private(set) var releasesCategories = false
        private(set) var readiness: Readiness?
        private(set) var delivery: Delivery?
        private(set) var running: Running?

        enum Readiness: Equatable {
            /// The operation is ready: this queue, which held it, takes it from here.
            case handOver(ConditionalOperationQueue)
            /// Ready while the queue adds it (``Context/admission``): the queue hands it over
            /// itself, with the rest of its batch. The runner has nothing to do for it.
            case admitted
            /// Post KVO `isReady`: `willChangeValue`, ``announcementBegan()``, `didChangeValue`,
            /// then ``announcementEnded()``.
            case announce
            /// Announce readiness again from another thread, after a delay: it became ready inside
            /// a query, and the queue most likely starts it before a stale answer could matter
            /// (``ReadinessAnnouncements``).
            case reannounceLater
            /// Announce readiness again from another thread, at once: the queue's re-test found it
            /// ready, and Foundation's queue runs it only on a later pass (``ReadinessAnnouncements``).
            case reannounceNow

            static func == (lhs: Readiness, rhs: Readiness) -> Bool {
                switch (lhs, rhs) {
                case (.handOver(let left), .handOver(let right)): left === right
                case (.admitted, .admitted), (.announce, .announce), (.reannounceLater, .reannounceLater),
                    (.reannounceNow, .reannounceNow):
                    true
                case (.handOver, _), (.admitted, _), (.announce, _), (.reannounceLater, _),
                    (.reannounceNow, _):
                    false
                }
            }
        }

        enum Delivery: Equatable {
            /// The caller became the deliverer: deliver the effects with ``nextEffect()``.
            case deliver
            /// The caller became the deliverer of the start, first in line: post KVO `isExecuting`
            /// around ``startAnnounced()``, tell the observers, then deliver as ``deliver`` does.
            case announceStart
        }

        enum Running: Equatable {
            /// Started without executing, the operation lets what it runs finish first (S11):
            /// call `drain()`, which ends with ``drained(errors:)``.
            case drain
            /// `start()` was called before the operation was ready: launch it on another thread.
            case launchLater
            /// Started with nothing to deliver and nobody to tell: call `execute()` now, on this
            /// thread.
            case executeNow
        }

        static let releaseCategories = Followup(releasesCategories: true)
        static func handOver(to queue: ConditionalOperationQueue) -> Followup {
            Followup(readiness: .handOver(queue))
        }
        static let admitted = Followup(readiness: .admitted)
        static let announceReady = Followup(readiness: .announce)
        static let reannounceLater = Followup(readiness: .reannounceLater)
        static let reannounceNow = Followup(readiness: .reannounceNow)
        static let deliver = Followup(delivery: .deliver)
        static let announceStart = Followup(delivery: .announceStart)
        static let drain = Followup(running: .drain)
        static let launchLater = Followup(running: .launchLater)
        static let executeNow = Followup(running: .executeNow)

        private init(
            releasesCategories: Bool = false, readiness: Readiness? = nil, delivery: Delivery? = nil,
            running: Running? = nil
        ) {
            self.releasesCategories = releasesCategories
            self.readiness = readiness
            self.delivery = delivery
            self.running = running
        }

        init(arrayLiteral followups: Followup...) {
            self.init(releasesCategories: false)
            for followup in followups { self = union(followup) }
        }

        var isEmpty: Bool { !releasesCategories && readiness == nil && delivery == nil && running == nil }

        /// The queue that takes the operation over (``Readiness/handOver(_:)``), if any.
        var queue: ConditionalOperationQueue? {
            if case .handOver(let queue) = readiness { queue } else { nil }
        }

        /// The steps of both.
        func union(_ other: Followup) -> Followup {
            Followup(
                releasesCategories: releasesCategories || other.releasesCategories,
                readiness: Self.either(readiness, other.readiness),
                delivery: Self.either(delivery, other.delivery),
                running: Self.either(running, other.running))
        }

        private static func either<Step: Equatable>(_ lhs: Step?, _ rhs: Step?) -> Step? {
            guard let lhs, let rhs, lhs != rhs else { return lhs ?? rhs }
            fatalError(
                "Followup: both \(lhs) and \(rhs) asked of the runner, which takes one step of each concern")
        }
    }

    /// Who is moving the operation towards `ready`, which decides what becoming ready calls for.
    enum Context: Equatable {
        /// An `isReady` query: readiness is its answer, no announcement needed.
        case query
        /// `start()`: the caller runs the operation on its own thread once ready.
        case start
        /// A condition's answer, a grant of categories, a dependency's wake: announced when ready.
        case callback
        /// A cancel: the caller may run the operation on its own thread; announced when ready.
        case cancel
        /// The queue adding the operation: it hands the operation over itself if it is ready now,
        /// with the rest of its batch.
        case admission

        /// The caller may run the operation on its own thread (`start()` was called).
        var canLaunch: Bool {
            switch self {
            case .start, .cancel: true
            case .query, .callback, .admission: false
            }
        }

        /// Readiness is the return value of the current `isReady` query or `start()`: no
        /// announcement needed.
        var answersQuery: Bool {
            switch self {
            case .query, .start: true
            case .callback, .cancel, .admission: false
            }
        }

        /// The queue adding the operation is asking.
        var isAdmission: Bool { self == .admission }
    }
}
