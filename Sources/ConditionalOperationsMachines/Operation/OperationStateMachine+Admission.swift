/// What admitting the operation and answering its readiness keep, besides the phase: the queue
/// that admitted it and the conditions it waits on, written by the events of several concerns
/// (configuration, `+Readiness`, `+Coalescing`, `markFinished`) through these types' methods alone.
extension OperationStateMachine {
    /// Words only; the byte-sized marks are ``AdmissionMarks``, stored after the phase, where they
    /// fill what would be padding.
    public struct Admission: Sendable {
        /// The `ConditionalOperationQueue` the operation was added to, until it finished: produced
        /// operations go there (S10), and it holds the operation until it is ready.
        @usableFromInline var owner: Host.Queue?
        /// Kept until every one answered (S2), then handed back to be let go of outside the lock
        /// (an operation's deinit may take the same lock, ``LockTable``); abandoned ones are let
        /// go of once finished. Diagnostics name the unanswered ones.
        @usableFromInline var conditions: [Host.Condition]

        @inlinable init() {
            self.conditions = []
        }

        @inlinable mutating func admit(by queue: Host.Queue) {
            owner = queue
        }

        @inlinable mutating func add(_ condition: Host.Condition) {
            conditions.append(condition)
        }

        /// Every condition answered: they are taken out, the caller holding them.
        @discardableResult
        @inlinable mutating func takeConditions() -> [Host.Condition] {
            var taken: [Host.Condition] = []
            swap(&taken, &conditions)
            return taken
        }

        /// Finished: the owner and the conditions, taken out, to be let go of outside the lock.
        @inlinable mutating func take() -> (owner: Host.Queue?, conditions: [Host.Condition]) {
            var taken: (owner: Host.Queue?, conditions: [Host.Condition]) = (nil, [])
            swap(&taken.owner, &owner)
            swap(&taken.conditions, &conditions)
            return taken
        }
    }

    /// The byte-sized state of admission and readiness (see ``Admission``).
    public struct AdmissionMarks: Sendable {
        /// The operation is being deallocated: readiness queries must change nothing.
        @usableFromInline var isDeallocating: Bool
        /// S27: a key was set, kept in ``CoalescingEntries`` (a byte here, that fits in the padding).
        @usableFromInline var hasCoalescingEntry: Bool

        @inlinable init() {
            self.isDeallocating = false
            self.hasCoalescingEntry = false
        }

        @inlinable mutating func beginDeallocation() {
            isDeallocating = true
        }

        @inlinable mutating func coalescingKeySet() {
            hasCoalescingEntry = true
        }
    }

    @inlinable public var owner: Host.Queue? { admission.owner }
    @inlinable public var conditions: [Host.Condition] { admission.conditions }
    @inlinable public var isDeallocating: Bool { admissionMarks.isDeallocating }
    @inlinable public var hasCoalescingEntry: Bool { admissionMarks.hasCoalescingEntry }
}
