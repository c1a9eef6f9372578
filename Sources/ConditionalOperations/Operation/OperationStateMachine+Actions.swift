import Foundation

/// What the events of ``OperationStateMachine`` hand back to their caller.
extension OperationStateMachine {
    /// Work done outside the lock by the deliverer, one at a time, in order.
    enum Effect {
        /// KVO `isExecuting`, then `operationDidStart`.
        case didStart
        case didProduce(Foundation.Operation)
        case didCancel([any Error])
        /// The `finished(errors:)` hook, `operationDidFinish`, the release of exclusivity
        /// categories, then KVO to `finished`.
        case finish([any Error], wasExecuting: Bool, releasesCategories: Bool)
        /// Call `execute()`: handed out once the effects queued before it were delivered, and
        /// only if still due (never queued itself).
        case execute(onAnotherThread: Bool)
    }

    /// What the caller of an event must do after releasing the lock.
    struct Followup: OptionSet {
        let rawValue: UInt8
        /// The caller became the deliverer: drain the effects with ``nextEffect()``.
        static let deliver = Followup(rawValue: 1 << 0)
        /// Post KVO `isReady` (between ``beginAnnouncement()`` and ``endAnnouncement()``).
        static let announceReady = Followup(rawValue: 1 << 1)
        /// `start()` was called before the operation was ready: launch it on another thread.
        static let launchLater = Followup(rawValue: 1 << 2)
        /// Announce readiness again from another thread (a queue may have cached a stale answer).
        static let reannounceLater = Followup(rawValue: 1 << 3)
        /// Give back (or withdraw the request for) the exclusivity categories.
        static let releaseCategories = Followup(rawValue: 1 << 4)
        /// The operation is ready: the `ConditionalOperationQueue` holding it hands it to Foundation.
        static let handToQueue = Followup(rawValue: 1 << 5)
        /// Started without executing, the operation lets what it runs finish first (S11): call
        /// `drain()`, which ends with ``drained(errors:)``.
        static let drain = Followup(rawValue: 1 << 6)
        /// Started with nothing to deliver and nobody to tell: call `execute()` now, on this thread,
        /// after every other followup.
        static let executeNow = Followup(rawValue: 1 << 7)
    }

    /// Who is moving the operation towards `ready`, which decides what readiness calls for.
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

    /// A step the caller performs synchronously, then reports with the matching event.
    enum Step {
        /// Ask each condition for its dependency, then ``conditionDependenciesAdded()``.
        case askDependencies([any OperationCondition])
        /// Evaluate the conditions, then ``endInlineEvaluation(context:)``.
        case evaluate([any OperationCondition])
        /// Request the categories, in the scope of `parent` (see
        /// `ExclusivityController.scoped(_:under:)`), then ``endInlineAcquisition(context:)``.
        case acquire(Set<String>, parent: ConditionalOperation?)
    }

    /// Where readiness stands after an event, and what the caller does next.
    struct Readiness {
        var isReady: Bool
        var next: Step? = nil
        var followup: Followup = []
        /// The query must be asked again with whether every dependency finished, read now.
        var needsDependencies = false
        /// Pass it back with that answer: a change meanwhile makes the answer stale.
        var dependencyEpoch: UInt32 = 0
    }

    enum StartAction {
        /// `start()` was called before: a misuse (S13).
        case misuse
        /// Query readiness in the `start` context: it launches the operation once ready.
        case admit
        /// Conditions are being evaluated; their completion launches the operation.
        case wait
        case launched(Followup)
    }

    enum AddConditionAction {
        case added
        /// The operation was cancelled before its conditions were evaluated: nothing to do.
        case ignored
        /// Conditions were already evaluated: a misuse (S13).
        case misuse
    }
}
