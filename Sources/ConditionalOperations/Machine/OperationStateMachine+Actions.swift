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

    /// The work an action leaves to the runner, once unlocked, in this order, with the queue to
    /// hand the operation to when it became ready there.
    struct Followup: Equatable, ExpressibleByArrayLiteral {
        private var steps: UInt16
        /// With ``handOver(to:)``: the `ConditionalOperationQueue` that held the operation until ready.
        private(set) var queue: ConditionalOperationQueue?

        private init(step: UInt16) {
            steps = step
        }

        /// Give back (or withdraw the request for) the exclusivity categories.
        static let releaseCategories = Followup(step: 1 << 0)
        /// The operation is ready: `queue`, which held it, takes it from here.
        static func handOver(to queue: ConditionalOperationQueue) -> Followup {
            var followup = Followup(step: 1 << 1)
            followup.queue = queue
            return followup
        }
        /// Post KVO `isReady`: `willChangeValue`, ``announcementBegan()``, `didChangeValue`, then
        /// ``announcementEnded()``.
        static let announceReady = Followup(step: 1 << 2)
        /// The caller became the deliverer: deliver the effects with ``nextEffect()``.
        static let deliver = Followup(step: 1 << 3)
        /// The caller became the deliverer of the start, first in line: post KVO `isExecuting`
        /// around ``startAnnounced()``, tell the observers, then deliver as ``deliver`` does.
        static let announceStart = Followup(step: 1 << 10)
        /// Started without executing, the operation lets what it runs finish first (S11): call
        /// `drain()`, which ends with ``drained(errors:)``.
        static let drain = Followup(step: 1 << 4)
        /// `start()` was called before the operation was ready: launch it on another thread.
        static let launchLater = Followup(step: 1 << 5)
        /// Announce readiness again from another thread, after a delay: it became ready inside a
        /// query, and the queue most likely starts it before a stale answer could matter
        /// (``ReadinessAnnouncements``).
        static let reannounceLater = Followup(step: 1 << 6)
        /// Announce readiness again from another thread, at once: the queue's re-test found it
        /// ready, and Foundation's queue runs it only on a later pass (``ReadinessAnnouncements``).
        static let reannounceNow = Followup(step: 1 << 9)
        /// Started with nothing to deliver and nobody to tell: call `execute()` now, on this thread.
        static let executeNow = Followup(step: 1 << 7)
        /// Ready while the queue adds it (``Context/admission``): the queue hands it over itself,
        /// with the rest of its batch. The runner has nothing to do for it.
        static let admitted = Followup(step: 1 << 8)

        init() {
            steps = 0
        }

        init(arrayLiteral followups: Followup...) {
            steps = 0
            for followup in followups {
                steps |= followup.steps
                if queue == nil { queue = followup.queue }
            }
        }

        var isEmpty: Bool { steps == 0 }

        /// Whether every step of `other` is to be taken (its queue aside).
        func contains(_ other: Followup) -> Bool {
            steps & other.steps == other.steps
        }

        func union(_ other: Followup) -> Followup {
            var union = self
            union.steps |= other.steps
            union.queue = queue ?? other.queue
            return union
        }

        static func == (lhs: Followup, rhs: Followup) -> Bool {
            lhs.steps == rhs.steps && lhs.queue === rhs.queue
        }
    }

    /// Who is moving the operation towards `ready`, which decides what becoming ready calls for.
    struct Context {
        /// The caller may run the operation on its own thread (`start()` was called).
        var canLaunch: Bool
        /// Readiness is the return value of the current `isReady` query: no announcement needed.
        var answersQuery: Bool
        /// The queue adding the operation is asking (``admission``).
        var isAdmission = false

        static let query = Context(canLaunch: false, answersQuery: true)
        static let start = Context(canLaunch: true, answersQuery: true)
        static let callback = Context(canLaunch: false, answersQuery: false)
        static let cancel = Context(canLaunch: true, answersQuery: false)
        /// The queue adding the operation: it hands the operation over itself if it is ready now,
        /// with the rest of its batch.
        static let admission = Context(canLaunch: false, answersQuery: false, isAdmission: true)
    }
}
