import Foundation

/// The vocabulary the events of ``OperationStateMachine`` share. Each event's own action is
/// declared just above the event; what those actions have in common is here.
extension OperationStateMachine {
    /// A callback, delivered outside the lock by one thread at a time, in order (``EffectQueue``).
    enum Effect {
        /// KVO `isExecuting`, then `operationDidStart`.
        case didStart
        case didProduce(Foundation.Operation)
        case didCancel([any Error])
        /// The `finished(errors:)` hook, `operationDidFinish`, the release of exclusivity
        /// categories, then KVO to `finished`.
        case finish([any Error], wasExecuting: Bool, releasesCategories: Bool)
    }

    /// The work an action leaves to the runner, once unlocked, in this order.
    struct Followup: OptionSet {
        let rawValue: UInt8
        /// Give back (or withdraw the request for) the exclusivity categories.
        static let releaseCategories = Followup(rawValue: 1 << 0)
        /// The operation is ready: the `ConditionalOperationQueue` holding it hands it to Foundation.
        static let handToQueue = Followup(rawValue: 1 << 1)
        /// Post KVO `isReady` (between ``announcementBegan()`` and ``announcementEnded()``).
        static let announceReady = Followup(rawValue: 1 << 2)
        /// The caller became the deliverer: deliver the effects with ``nextEffect()``.
        static let deliver = Followup(rawValue: 1 << 3)
        /// Started without executing, the operation lets what it runs finish first (S11): call
        /// `drain()`, which ends with ``drained(errors:)``.
        static let drain = Followup(rawValue: 1 << 4)
        /// `start()` was called before the operation was ready: launch it on another thread.
        static let launchLater = Followup(rawValue: 1 << 5)
        /// Announce readiness again from another thread (``ReadinessAnnouncements``).
        static let reannounceLater = Followup(rawValue: 1 << 6)
        /// Started with nothing to deliver and nobody to tell: call `execute()` now, on this thread.
        static let executeNow = Followup(rawValue: 1 << 7)
    }

    /// Who is moving the operation towards `ready`, which decides what becoming ready calls for.
    struct Context {
        /// The caller may run the operation on its own thread (`start()` was called).
        var canLaunch: Bool
        /// Readiness is the return value of the current `isReady` query: no announcement needed.
        var answersQuery: Bool

        static let query = Context(canLaunch: false, answersQuery: true)
        static let start = Context(canLaunch: true, answersQuery: true)
        static let callback = Context(canLaunch: false, answersQuery: false)
        static let cancel = Context(canLaunch: true, answersQuery: false)
    }
}
