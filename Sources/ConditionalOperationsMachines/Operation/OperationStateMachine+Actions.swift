import Foundation

/// A callback, delivered outside the lock by one thread at a time, in order (``EffectQueue``).
public enum OperationEffect: Sendable {
    /// `operationDidStart`, once the start was announced by KVO `isExecuting`
    /// (``OperationStateMachine/startAnnounced()``).
    case didStart
    case didProduce(Foundation.Operation)
    case didCancel([any Error])
    /// The `finished(errors:)` hook, `operationDidFinish`, the release of exclusivity
    /// categories, then KVO to `finished`.
    case finish([any Error], wasExecuting: Bool, releasesCategories: Bool)
}

/// The vocabulary the events of ``OperationStateMachine`` share. Each event's own action is
/// declared just above the event; what those actions have in common is here.
extension OperationStateMachine {
    public typealias Effect = OperationEffect

    /// The work an action leaves to the runner, once unlocked: at most one step of each concern,
    /// taken in this order (``ConditionalOperation/perform(_:)`` switches over each).
    ///
    /// An event builds it once, each concern given once (``followup(releasing:told:_:)``): there
    /// is no way to merge two, so two steps of one concern cannot be written down.
    public struct Followup: Equatable, Sendable {
        /// Give back (or withdraw the request for) the exclusivity categories.
        public let releasesCategories: Bool
        public let readiness: Readiness?
        public let delivery: Delivery?
        public let running: Running?

        public enum Readiness: Equatable, Sendable {
            /// The operation is ready: this queue, which held it, takes it from here.
            case handOver(Host.Queue)
            /// Ready while the queue adds it (``Context/admission``): the queue hands it over
            /// itself, with the rest of its batch. The runner has nothing to do for it.
            case admitted
            /// Post KVO `isReady`: `willChangeValue`, ``announcementBegan()``, `didChangeValue`,
            /// then ``announcementEnded()``.
            case announce
            /// Look again from another thread, after a delay, and announce readiness again if it
            /// still waits for its start: it became ready inside a query after a `false`, and the
            /// queue most likely starts it before a stale answer could matter. The look stays
            /// silent where the queue's re-test repairs one (``ReadinessAnnouncements``).
            case reannounceLater
            /// Announce readiness again from another thread, at once: the queue's re-test found it
            /// ready, and Foundation's queue runs it only on a later pass (``ReadinessAnnouncements``).
            case reannounceNow

            @inlinable public static func == (lhs: Readiness, rhs: Readiness) -> Bool {
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

        public enum Delivery: Equatable, Sendable {
            /// The caller became the deliverer: deliver the effects with ``nextEffect()``.
            case deliver
            /// The caller became the deliverer of the start, first in line: post KVO `isExecuting`
            /// around ``startAnnounced()``, tell the observers, then deliver as ``deliver`` does.
            case announceStart
        }

        public enum Running: Equatable, Sendable {
            /// Started without executing, the operation lets what it runs finish first (S11):
            /// call `drain()`, which ends with ``drained(errors:)``.
            case drain
            /// `start()` was called before the operation was ready: launch it on another thread.
            case launchLater
            /// Started with nothing to deliver and nobody to tell: call `execute()` now, on this
            /// thread.
            case executeNow
        }

        /// No step at all.
        @inlinable public static var nothing: Followup { Followup() }
        @inlinable public static var releaseCategories: Followup { Followup(releasesCategories: true) }
        @inlinable public static func handOver(to queue: Host.Queue) -> Followup {
            Followup(readiness: .handOver(queue))
        }
        @inlinable public static var announceReady: Followup { Followup(readiness: .announce) }
        @inlinable public static var reannounceLater: Followup { Followup(readiness: .reannounceLater) }
        @inlinable public static var reannounceNow: Followup { Followup(readiness: .reannounceNow) }
        @inlinable public static var drain: Followup { Followup(running: .drain) }

        /// One step of each concern, or none.
        @inlinable public init(
            releasesCategories: Bool = false, readiness: Readiness? = nil, delivery: Delivery? = nil,
            running: Running? = nil
        ) {
            self.releasesCategories = releasesCategories
            self.readiness = readiness
            self.delivery = delivery
            self.running = running
        }

        @inlinable public var isEmpty: Bool {
            !releasesCategories && readiness == nil && delivery == nil && running == nil
        }

        /// The queue that takes the operation over (``Readiness/handOver(_:)``), if any.
        @inlinable public var queue: Host.Queue? {
            if case .handOver(let queue) = readiness { queue } else { nil }
        }
    }

    /// What becoming ready calls for (``becomeReady(_:context:)``): a step towards the queue or
    /// Foundation, or the launch of a `start()` made before.
    public enum ReadyStep: Equatable, Sendable {
        /// A step of readiness, or none (the answer to the query is the news).
        case readiness(Followup.Readiness?)
        /// `start()` was called, from a context that cannot run the operation: launch it on another
        /// thread.
        case launchLater
        case launched(Launch)
    }

    /// What launching a started, ready operation calls for (``launch()``).
    public enum Launch: Equatable, Sendable {
        /// It drains what it runs first (S11).
        case drain
        /// Nobody to tell of the start: `execute()` at once, on this thread.
        case executeNow
        /// Its start or its finish was queued; `deliverer`: the caller became the one delivering.
        case queued(deliverer: Bool)
    }

    /// The followup of an event, each concern given once: `releasing` the categories (a request
    /// withdrawn, ``abandonConditions()``), `told`: the caller became the deliverer of a callback
    /// the event queued, and the `step` of becoming ready. The delivery is whether the caller
    /// delivers, whoever queued: the start, if it is next, is announced first.
    ///
    /// `mutating` though it changes nothing: an event's steps change the machine, and a
    /// non-mutating call reads the machine before its arguments are evaluated (a launch given as
    /// an argument would be unseen), where a mutating call's access begins only once they were.
    @inlinable mutating func followup(
        releasing: Bool = false, told: Bool = false, _ step: ReadyStep = .readiness(nil)
    )
        -> Followup
    {
        var delivers = told
        let readiness: Followup.Readiness?
        let running: Followup.Running?
        switch step {
        case .readiness(let step):
            (readiness, running) = (step, nil)
        case .launchLater:
            (readiness, running) = (nil, .launchLater)
        case .launched(.drain):
            (readiness, running) = (nil, .drain)
        case .launched(.executeNow):
            (readiness, running) = (nil, .executeNow)
        case .launched(.queued(let deliverer)):
            (readiness, running) = (nil, nil)
            delivers = delivers || deliverer
        }
        return Followup(
            releasesCategories: releasing, readiness: readiness,
            delivery: delivers ? (effects.startIsNext ? .announceStart : .deliver) : nil, running: running)
    }

    /// Who is moving the operation towards `ready`, which decides what becoming ready calls for.
    public enum Context: Equatable, Sendable {
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
        @inlinable public var canLaunch: Bool {
            switch self {
            case .start, .cancel: true
            case .query, .callback, .admission: false
            }
        }

        /// Readiness is the return value of the current `isReady` query or `start()`: no
        /// announcement needed.
        @inlinable public var answersQuery: Bool {
            switch self {
            case .query, .start: true
            case .callback, .cancel, .admission: false
            }
        }

        /// The queue adding the operation is asking.
        @inlinable public var isAdmission: Bool { self == .admission }
    }
}
