/// The data the phases carry (``OperationStateMachine/Phase``): what was asked of the operation,
/// what its dependencies leave to check, what its conditions and categories are at, how it executes.
extension OperationStateMachine {
    /// What was asked of an operation not launched yet, from outside.
    public struct Asked: OptionSet, Sendable {
        public let rawValue: UInt8

        @inlinable public init(rawValue: UInt8) {
            self.rawValue = rawValue
        }

        /// `start()` was called (S13: once).
        @inlinable public static var start: Asked { Asked(rawValue: 1 << 0) }
        /// `finish` was called before executing (S6), or the operation is in a dependency cycle
        /// (S9): it finishes without executing once started.
        @inlinable public static var finish: Asked { Asked(rawValue: 1 << 1) }
    }

    /// Whether Foundation's count of unfinished dependencies answers for the operation.
    public enum DependencyCount: UInt8, Sendable {
        case counted
        /// A dependency was removed unfinished while waited for: swift-corelibs-foundation counts
        /// it still, so the dependencies themselves are read (`+LateDependencies`).
        case stale
    }

    /// S9: a dependency added once the operation passed its own (`+LateDependencies`), and what
    /// Foundation's count is worth: stale once a dependency was removed unfinished while waited
    /// for, before the operation passed its dependencies or since.
    public struct LateDependency: Equatable, Sendable {
        @usableFromInline var count: DependencyCount
        @usableFromInline var awaited: Awaited

        public enum Awaited: UInt8, Sendable {
            case none
            /// It starts only once Foundation says every dependency finished.
            case awaited
            /// Awaited, and its owner's start came first and was declined: the owner is handed
            /// the operation again once the dependency finished.
            case startDeclined
        }

        /// Passed its dependencies with Foundation's count worth `count`, none added since.
        @inlinable public init(_ count: DependencyCount, awaited: Awaited = .none) {
            self.count = count
            self.awaited = awaited
        }

        /// None awaited, and Foundation's count answers: what a phase that reads no count carries
        /// (joined, started), and what coalescing looks for. Clearing what an operation awaited
        /// keeps its count (``noneAwaited``). (Not `none`: beside an optional, that reads as
        /// `nil`.)
        @inlinable public static var cleared: LateDependency { LateDependency(.counted) }

        /// None awaited any more: the dependencies added late finished, or a cancel let go of
        /// them. Foundation's count is worth what it was: one made stale by a dependency removed
        /// stays stale (swift-corelibs-foundation keeps counting the dependency removed, and an
        /// operation reading its count again would answer `false` for good).
        @inlinable public var noneAwaited: LateDependency { LateDependency(count) }
    }

    /// What a phase past the operation's own dependencies carries until it is launched: what its
    /// callers asked, what Foundation's count is worth and a dependency added since. One byte:
    /// beside the answers of `evaluating`, a second one would make every operation 8 bytes larger.
    public struct Passed: Equatable, Sendable {
        /// ``Asked`` in the low 2 bits, then ``LateDependency/count`` in 1 and
        /// ``LateDependency/awaited`` in 2.
        @usableFromInline var bits: UInt8

        @inlinable public init(_ asked: Asked, _ late: LateDependency) {
            // A third request would have to move the other bits up.
            assert(asked.rawValue & ~0b11 == 0, "Passed holds two requests: \(asked)")
            bits = asked.rawValue | (late.count == .stale ? 1 << 2 : 0) | late.awaited.rawValue << 3
        }

        @inlinable public var asked: Asked {
            get { Asked(rawValue: bits & 0b11) }
            set { self = Passed(newValue, late) }
        }

        /// A dependency added late is awaited: read from the byte itself, since every start and
        /// every readiness query of a ready operation asks.
        @inlinable public var awaitsLateDependency: Bool { bits >> 3 != 0 }

        /// What Foundation's count is worth, read from the byte itself (every lock trip's hint asks).
        @inlinable public var dependencyCount: DependencyCount { bits & 1 << 2 == 0 ? .counted : .stale }

        @inlinable public var late: LateDependency {
            get {
                LateDependency(
                    bits & 1 << 2 == 0 ? .counted : .stale,
                    awaited: LateDependency.Awaited(rawValue: bits >> 3)!)
            }
            set { self = Passed(asked, newValue) }
        }
    }

    /// How far the conditions' own dependencies (S3) are: each step makes a readiness answer read
    /// before it stale.
    public enum ConditionDependencies: UInt8, Sendable {
        /// Its own dependencies, held back until admission, are being added to Foundation: its
        /// answer is not whole yet (``deferDependency(_:)``). The conditions are unasked.
        case registering
        case unasked
        /// A caller is asking the conditions and adding their dependencies: one finishing
        /// meanwhile must not let the conditions be evaluated.
        case asking
        /// The same, every dependency of the operation's own having finished: if the conditions
        /// add none, they are evaluated without reading the dependencies again.
        case askingAfterDependencies
        case asked
    }

    /// What the conditions said, once they all answered.
    public enum Verdict: Sendable {
        case execute
        /// A condition failed (S2): it finishes without executing, with the failures.
        case conditionsFailed
        /// A condition skipped it and none failed (S17): it finishes without executing or error.
        case skipped
        /// The operation it joined finished (S27): it finishes as that one did, without executing.
        case joined
    }

    public struct Evaluation: Sendable {
        /// A repeated or late answer is ignored (S2).
        @usableFromInline var answered: AnsweredConditions
        @usableFromInline var failed: Bool
        @usableFromInline var skipped: Bool

        @inlinable public var verdict: Verdict { failed ? .conditionsFailed : skipped ? .skipped : .execute }
        /// The caller evaluating them reports the outcome itself: answers meanwhile only record.
        @usableFromInline var isInline: Bool
        /// Since when they are being evaluated, for diagnostics (``stamp(thread:now:)``).
        @usableFromInline var began: Uptime

        @inlinable public init(count: Int) {
            self.failed = false
            self.skipped = false
            self.isInline = true
            self.began = Uptime.unstamped
            answered = AnsweredConditions(count: count)
        }
    }

    public struct Acquisition: Sendable {
        /// The caller requesting them reports the outcome itself: a grant meanwhile only records.
        @usableFromInline var isInline: Bool
        @usableFromInline var isGranted: Bool
        /// Since when the categories are requested, for diagnostics (``stamp(thread:now:)``).
        @usableFromInline var began: Uptime

        @inlinable init() {
            self.isInline = true
            self.isGranted = false
            self.began = Uptime.unstamped
        }
    }

    public enum Execution: Sendable {
        /// `execute()` is due once the callbacks queued before it were delivered, on this thread
        /// or, when another one is delivering them, on a thread of its own.
        case due(onAnotherThread: Bool)
        /// `execute()` was called `since` then, on `thread` if it runs on the thread that started
        /// it (``stamp(thread:now:)``).
        case called(thread: ThreadIdentity, since: Uptime)
        /// Cancelled or finished before `execute()` was called, which therefore is not (S1): an
        /// operation that runs others lets them finish first (S11), then finishes.
        /// `finishRequested`: a `finish` came (S6: the first one wins).
        case draining(finishRequested: Bool)
    }
}
