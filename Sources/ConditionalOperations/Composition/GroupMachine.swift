import ConditionalOperationsMachines

/// The machine of a ``GroupOperation``'s children, given what it reaches of the library: the
/// queue they run on, its delegate, and the operations whose progress the group adopts.
typealias GroupMachine = GroupStateMachine<ConditionalOperationQueue, GroupChildTracker, ConditionalOperation>
