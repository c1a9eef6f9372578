import Foundation

/// Why an operation is where it is: a value a program can switch over, and one readable line.
///
/// Ask any operation for ``ConditionalOperation/diagnosis``, or a ``ConditionalOperationQueue``
/// for ``ConditionalOperationQueue/diagnoses`` (every unfinished operation) and
/// ``ConditionalOperationQueue/diagnosticReport``:
///
/// ```swift
/// print(operation.diagnosis)
/// // FetchUsers 'users' (evaluatingConditions): evaluating conditions for 12.0 s; not answered: Reachable
/// ```
public struct OperationDiagnosis: Sendable, CustomStringConvertible {
    /// The operation's type and name, as messages show it: `FetchUsers 'users'`.
    public let name: String
    /// The operation's state when the diagnosis was made (for a plain `Foundation.Operation`:
    /// `pending` before it is ready, then `ready`, `executing`, `finished`).
    public let state: ConditionalOperation.State
    /// Whether the operation had been cancelled; a cancelled operation may still wait (S5).
    public let isCancelled: Bool
    /// What the operation waits for, or what it does.
    public let reason: Reason

    /// What an operation waits for, phase by phase.
    public enum Reason: Sendable {
        /// Neither added to a queue nor started. On a plain `OperationQueue` an operation stays
        /// here until its dependencies finished (Foundation tells it nothing when it is added).
        case notEnqueued
        /// A child of a ``GroupOperation`` that has not started yet, named here: the group hands
        /// its children to its queue only once it executes (S11, S31).
        case group(String)
        /// Waiting for these unfinished dependencies (the condition dependencies of S3 included).
        case dependencies([Dependency])
        /// Part of a dependency cycle, which no dependency of it will ever leave: the names of the
        /// operations met following its unfinished dependencies back to it, itself first. None
        /// of them can start; cancel one, or remove a dependency. A `ConditionalOperationQueue`
        /// breaks a cycle of ``ConditionalOperation``s when it is added (S9); a plain
        /// `OperationQueue` never does.
        case dependencyCycle([String])
        /// Its conditions are being evaluated: those named have not answered after `waited` seconds.
        case conditions(unanswered: [String], waited: TimeInterval)
        /// Waiting `waited` seconds so far for exclusivity categories (S7).
        case categories([CategoryWait], waited: TimeInterval)
        /// Ready: waiting for its queue to start it.
        case start(QueueStatus)
        /// Executing for `seconds` (`nil`: not known, for a plain `Foundation.Operation`, or
        /// `execute()` not called yet): it finishes when it calls `finish`, or is cancelled (S5).
        case executing(seconds: TimeInterval?)
        /// A ``RetryOperation`` or ``RepeatOperation`` that executes runs attempt (or iteration)
        /// `number`, whose own diagnosis says what it waits for: what the composite waits for (S32).
        indirect case attempt(Int, OperationDiagnosis)
        /// A ``RetryOperation`` or ``RepeatOperation`` between attempts: attempt (or iteration)
        /// `number` ended, and the next one starts once the back-off's wait is over.
        case betweenAttempts(after: Int)
        /// Started without executing (cancelled, a condition failed, finished early), it waits for
        /// the operations it runs to finish first (S11, a `GroupOperation`).
        case children
        /// Its `finished(errors:)` hook and `operationDidFinish` observers are running.
        case finishing
        /// Finished, with these errors (empty if it succeeded): it waits for nothing.
        case finished(errors: [any Error])
        /// Finished without executing, with ``OperationError/dependencyCycle``: its queue found it
        /// in this dependency cycle (S9; a coalescing join is an edge of it, S33), named as
        /// ``dependencyCycle(_:)`` names one, itself first.
        case cycleBroken([String])
        /// Finished without executing: cancelled before `execute()` was called (S4), also as it
        /// started, by a `didStart` observer or another thread (S1); `errors` are its errors (the
        /// cancel's). One cancelled while it executed finishes with ``finished(errors:)``.
        case cancelled(errors: [any Error])
        /// Finished without executing or error: a condition said there was nothing to do (S17).
        case skipped
    }

    /// An unfinished dependency and its state.
    public struct Dependency: Sendable, Equatable {
        /// The dependency's type and name, as messages show it.
        public let name: String
        /// For a plain `Foundation.Operation`: `pending` before it is ready, then `ready`,
        /// `executing`, `finished`.
        public let state: ConditionalOperation.State

        /// A dependency named `name` in `state`, for comparisons in tests.
        public init(name: String, state: ConditionalOperation.State) {
            self.name = name
            self.state = state
        }
    }

    /// One category an operation waits for.
    public struct CategoryWait: Sendable, Equatable {
        /// The category's name (see ``MutuallyExclusive/category``).
        public let category: String
        /// The operation holding it, if it is not this one; `nil` if nobody does yet (another
        /// category of the same request is still held by somebody).
        public let holder: String?
        /// How many requests are ahead in this category's line, the holder's included (for a
        /// rate limit: the requests waiting for a permit ahead of it).
        public let ahead: Int
        /// For a ``RateLimit`` (S28), its rate and when its next permit comes; `nil` for an
        /// exclusivity category. `category` is then the rate limit's name.
        public let rateLimit: RateLimitWait?

        /// A wait for `category`, for comparisons in tests.
        public init(category: String, holder: String?, ahead: Int) {
            self.init(category: category, holder: holder, ahead: ahead, rateLimit: nil)
        }

        /// A wait for `category`, or for a rate limit's permit when `rateLimit` is given.
        public init(category: String, holder: String?, ahead: Int, rateLimit: RateLimitWait?) {
            self.category = category
            self.holder = holder
            self.ahead = ahead
            self.rateLimit = rateLimit
        }
    }

    /// A ``RateLimit``'s rate, and when its next permit comes (S28).
    public struct RateLimitWait: Sendable, Equatable {
        /// How many permits any window of `interval` holds.
        public let permits: Int
        /// The sliding window's length.
        public let interval: Duration
        /// Seconds until the window frees its next permit: 0 when one is free already (the wait is
        /// then for the operations ahead, or for a category taken with it).
        public let nextPermit: TimeInterval

        /// A rate limit's wait, for comparisons in tests.
        public init(permits: Int, interval: Duration, nextPermit: TimeInterval) {
            self.permits = permits
            self.interval = interval
            self.nextPermit = nextPermit
        }
    }

    /// What keeps a ready operation from starting, where the library can know.
    public enum QueueStatus: Sendable, Equatable {
        /// Not known: on a plain `OperationQueue` the library can't tell which queue holds it.
        case unknown
        /// Its `ConditionalOperationQueue` runs and has room: it starts soon.
        case starting
        /// Its queue is suspended (`isSuspended`).
        case suspended
        /// Its queue runs as many operations as its `maxConcurrentOperationCount` allows.
        case atConcurrencyLimit(Int)
    }

    /// The diagnosis on one line: the operation's name, its state (and whether it is cancelled),
    /// then the reason: `Upload 'photos' (executing): executing for 3.2 s`.
    public var description: String {
        "\(name) (\(state)\(isCancelled ? ", cancelled" : "")): \(reason)"
    }
}
