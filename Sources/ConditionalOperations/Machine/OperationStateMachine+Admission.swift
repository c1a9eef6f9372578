/// What admitting the operation and answering its readiness keep, besides the phase: the queue
/// that admitted it and the conditions it waits on, written by the events of several concerns
/// (configuration, `+Readiness`, `+Coalescing`, `markFinished`) through these types' methods alone.
extension OperationStateMachine {
    /// Words only; the byte-sized marks are ``AdmissionMarks``, stored after the phase, where they
    /// fill what would be padding.
    struct Admission {
        /// The `ConditionalOperationQueue` the operation was added to, until it finished: produced
        /// operations go there (S10), and it holds the operation until it is ready.
        private(set) var owner: ConditionalOperationQueue?
        /// Kept until every one answered (S2), then handed back to be let go of outside the lock
        /// (an operation's deinit may take the same lock, ``LockTable``); abandoned ones are let
        /// go of once finished. Diagnostics name the unanswered ones.
        private(set) var conditions: [any OperationCondition] = []

        mutating func admit(by queue: ConditionalOperationQueue) {
            owner = queue
        }

        mutating func add(_ condition: any OperationCondition) {
            conditions.append(condition)
        }

        /// Every condition answered: they are taken out, the caller holding them.
        @discardableResult
        mutating func takeConditions() -> [any OperationCondition] {
            var taken: [any OperationCondition] = []
            swap(&taken, &conditions)
            return taken
        }

        /// Finished: the owner and the conditions, taken out, to be let go of outside the lock.
        mutating func take() -> (owner: ConditionalOperationQueue?, conditions: [any OperationCondition]) {
            var taken: (owner: ConditionalOperationQueue?, conditions: [any OperationCondition]) = (nil, [])
            swap(&taken.owner, &owner)
            swap(&taken.conditions, &conditions)
            return taken
        }
    }

    /// The byte-sized state of admission and readiness (see ``Admission``).
    struct AdmissionMarks {
        /// The operation is being deallocated: readiness queries must change nothing.
        private(set) var isDeallocating = false
        /// S27: a key was set, kept in ``CoalescingEntries`` (a byte here, that fits in the padding).
        private(set) var hasCoalescingEntry = false

        mutating func beginDeallocation() {
            isDeallocating = true
        }

        mutating func coalescingKeySet() {
            hasCoalescingEntry = true
        }
    }

    var owner: ConditionalOperationQueue? { admission.owner }
    var conditions: [any OperationCondition] { admission.conditions }
    var isDeallocating: Bool { admissionMarks.isDeallocating }
    var hasCoalescingEntry: Bool { admissionMarks.hasCoalescingEntry }
}
