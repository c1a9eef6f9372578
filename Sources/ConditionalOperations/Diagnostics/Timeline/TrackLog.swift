import ConditionalOperationsMachines
import Foundation

/// What a ``TrackRecording`` writes as its operation changes: one mark a change, a word each (what
/// changed, then when), the first six in place, and the few changes that carry something (a
/// condition's answer, a wait for categories, a join) beside them. A change is marked as the
/// operation's machine makes it and stamped with the time once the machine's event is over
/// (``stamp(at:)``): the machine reads no clock. Its spans are made of it only when the timeline is
/// exported (``replay(track:)``): recording a change allocates nothing and builds no span.
struct TrackLog {
    /// What a change carries beyond its time.
    enum Detail {
        /// A condition answered; its evaluation began at `began` and lasted `elapsed` nanoseconds
        /// until the mark (known once stamped).
        case condition(any OperationCondition, OperationConditionResult, began: Uptime, elapsed: UInt64)
        /// It began to wait for these categories, limits or permits, `ahead` requests before it.
        case waitingForCategories([String], ahead: Int)
        /// It joined an operation of this type and `name` (coalescing).
        case joined(Foundation.Operation.Type, name: String?)
        /// It holds these from now on.
        case holding([String])
    }

    /// A mark: the state entered (its raw value), or ``detailTag`` for the next detail, in the top
    /// four bits; the clock's nanoseconds below, once stamped.
    private static let timeBits: UInt64 = 60
    private static let timeMask: UInt64 = (1 << timeBits) - 1
    private static let detailTag: UInt64 = 0xF
    private static let inPlaceCapacity = 6

    private var inPlace: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0)
    /// Counts kept in four bytes, read as `Int`s: an operation's recording is most of what a
    /// timeline costs it in memory.
    private var storedCount: UInt32 = 0
    private var count: Int {
        get { Int(storedCount) }
        set { storedCount = UInt32(newValue) }
    }
    private var spilled: [UInt64] = []
    private var details: [Detail] = []
    /// The marks and details before these are stamped.
    private var storedStampedCount: UInt32 = 0
    private var storedStampedDetails: UInt32 = 0
    private var stampedCount: Int {
        get { Int(storedStampedCount) }
        set { storedStampedCount = UInt32(newValue) }
    }
    private var stampedDetails: Int {
        get { Int(storedStampedDetails) }
        set { storedStampedDetails = UInt32(newValue) }
    }
    /// When it was cancelled, if it was.
    var cancelledAt: UInt64?
    /// It began executing (one finished without it was cancelled, skipped or failed a condition).
    private(set) var executed = false
    /// When it finished, and with which errors, once it did.
    var finished: (at: UInt64, errors: [any Error])?
    /// How many spans a replay of it makes once it finished, counted as it goes: each span is
    /// counted as it opens (every span open is closed at the end at the latest), less the one a
    /// join takes the place of. The kind of its open top-level span, to tell which marks open one.
    private(set) var spanCount: UInt32 = 0
    private var openKind: TimelineSpan.Kind?

    /// It entered `state`.
    mutating func mark(_ state: ConditionalOperation.State) {
        if state == .executing { executed = true }
        let kind = TimelineSpan.Kind(state)
        if kind != openKind {
            openKind = kind
            if kind != nil { spanCount += 1 }
        }
        append(UInt64(state.rawValue) << Self.timeBits)
    }

    /// Something that carries `detail` happened.
    mutating func mark(_ detail: Detail) {
        switch detail {
        case .condition, .waitingForCategories: spanCount += 1
        case .joined:
            if openKind == nil { spanCount += 1 }
            openKind = .joined
        case .holding: break
        }
        details.append(detail)
        append(Self.detailTag << Self.timeBits)
    }

    /// No mark waits for its time.
    var isStamped: Bool { stampedCount == count }

    /// The marks since the last stamp happened at `now`; the conditions they tell of were
    /// evaluated until now.
    mutating func stamp(at now: UInt64) {
        let time = now & Self.timeMask
        var index = stampedCount
        let inPlaceEnd = min(count, Self.inPlaceCapacity)
        if index < inPlaceEnd {
            withUnsafeMutableBytes(of: &inPlace) { bytes in
                let marks = bytes.bindMemory(to: UInt64.self)
                while index < inPlaceEnd {
                    marks[index] |= time
                    index += 1
                }
            }
        }
        while index < count {
            spilled[index - Self.inPlaceCapacity] |= time
            index += 1
        }
        stampedCount = count
        if stampedDetails < details.count { stampDetails() }
    }

    /// The conditions answered since the last stamp were evaluated until now.
    private mutating func stampDetails() {
        while stampedDetails < details.count {
            if case .condition(let condition, let result, let began, _) = details[stampedDetails] {
                let elapsed = UInt64(max(0, began.seconds()) * 1e9)
                details[stampedDetails] = .condition(condition, result, began: began, elapsed: elapsed)
            }
            stampedDetails += 1
        }
    }

    private mutating func append(_ mark: UInt64) {
        let index = count
        count = index + 1
        guard index < Self.inPlaceCapacity else { return spilled.append(mark) }
        withUnsafeMutableBytes(of: &inPlace) {
            $0.storeBytes(of: mark, toByteOffset: index * 8, as: UInt64.self)
        }
    }

    private func mark(at index: Int) -> UInt64 {
        guard index < Self.inPlaceCapacity else { return spilled[index - Self.inPlaceCapacity] }
        return withUnsafeBytes(of: inPlace) { $0.load(fromByteOffset: index * 8, as: UInt64.self) }
    }

    /// How it ended as far as it recorded.
    var ending: TrackContents.Ending {
        TrackContents.Ending(wasCancelled: cancelledAt != nil, executed: executed, finished: finished)
    }

    /// Its spans, made again from the stamped marks: each as it came, then the end if it finished.
    func replay(track: Int) -> TrackContents {
        var contents = TrackContents()
        var nextDetail = details.startIndex
        for index in 0..<stampedCount {
            let mark = self.mark(at: index)
            let tag = mark >> Self.timeBits
            let time = mark & Self.timeMask
            if tag == Self.detailTag {
                contents.apply(details[nextDetail], track: track, at: time)
                nextDetail += 1
            } else if let state = ConditionalOperation.State(rawValue: Int(tag)) {
                contents.enter(state, track: track, at: time)
            }
        }
        contents.cancelledAt = cancelledAt
        contents.executed = executed
        if let finished {
            contents.closeAll(at: finished.at)
            contents.finished = finished
        }
        return contents
    }
}
