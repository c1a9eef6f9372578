import Foundation

/// One stretch of an operation's life in an ``OperationTimeline``: what it was doing or waiting
/// for, from when to when. Times are nanoseconds of the timeline's clock.
struct TimelineSpan: Sendable {
    /// What the operation did during the span; its `rawValue` names it in the exports, the cases'
    /// order is the page's legend.
    enum Kind: String, Sendable, CaseIterable {
        case dependencies = "waiting for dependencies"
        /// Joined another operation (coalescing): it waits for that one to finish.
        case joined = "joined another"
        case conditions = "evaluating conditions"
        /// One condition's evaluation, inside `conditions`.
        case condition
        /// Waiting for exclusivity categories, limits or rate-limit permits, inside `conditions`.
        case categories = "waiting for categories"
        case slot = "waiting for a slot"
        case executing
        case finishing

        /// Nested inside another span of its operation.
        var isNested: Bool { self == .condition || self == .categories }

        /// The operation's public state that opens a top-level span of this kind.
        init?(_ state: ConditionalOperation.State) {
            switch state {
            case .pending: self = .dependencies
            case .evaluatingConditions: self = .conditions
            case .ready: self = .slot
            case .executing: self = .executing
            case .finishing: self = .finishing
            case .initialized, .finished: return nil
            }
        }
    }

    /// Why, as recorded: user code (a condition's name, an error's description) is read only when
    /// the timeline is exported, outside every lock. Indirect: a span is copied as it is recorded,
    /// and most have no reason, which then costs one word and no allocation.
    indirect enum Reason: Sendable {
        case none
        case condition(any OperationCondition, OperationConditionResult)
        /// The keys the operation asked for (a limit or rate after the name), in no order: their
        /// names are shown, sorted, when exported. `ahead`: how many requests were ahead of it in the longest of
        /// their lines as it began to wait, holders included.
        case categories([String], ahead: Int)
        /// The operation it joined: its type and `name`, named as diagnoses name it when exported.
        case joined(Foundation.Operation.Type, name: String?)
    }

    let track: Int
    let kind: Kind
    let start: UInt64
    var end: UInt64?
    var reason = Reason.none
}

/// One operation an ``OperationTimeline`` recorded, as an export shows it: its row, made of its
/// recording when the timeline is read (``TimelineRows``).
struct TimelineTrack: Sendable {
    /// Its type and `name`, read when it was added; put together as diagnoses show them
    /// (`ClosureOperation<()> 'upload'`) only when exported: naming a type costs more than the
    /// rest of the recording.
    let type: Foundation.Operation.Type
    let givenName: String?

    var name: String { Foundation.Operation.diagnosticName(type: type, name: givenName) }
    /// The track of the composite or group it runs in, if it was recorded.
    let parent: Int?
    /// The queue that admitted it (a group's own queue for its children), if one did: those
    /// waiting for a slot beside it wait for one of that queue.
    let queue: ObjectIdentifier?
    /// It is a composite running this many operations the timeline does not record (not
    /// `ConditionalOperation`s) that have not finished: whether they execute is unknown.
    let unrecordedRunning: Int
    /// It was cancelled.
    let wasCancelled: Bool
    /// It began executing (one finished without it was cancelled, skipped or failed a
    /// condition).
    let executed: Bool
    /// When it finished, and with which errors, once it did.
    let finished: (at: UInt64, errors: [any Error])?

    /// The row of `recording`, which ended (or not yet) as its log says; `note`: what the
    /// timeline noted of it beside it.
    init(_ recording: TrackRecording, ending: TrackContents.Ending, note: TrackTable.Note?) {
        type = recording.type
        givenName = recording.givenName
        parent = recording.parent
        queue = recording.queue
        unrecordedRunning = note?.unrecordedRunning ?? 0
        wasCancelled = ending.wasCancelled
        executed = ending.executed
        finished = ending.finished
    }
}
