/// Where one running operation records its spans: behind a lock of its own, so that recording a
/// state change takes neither the timeline's lock nor another operation's. Its spans join the
/// timeline's ring when the operation finishes (``TimelineState/finish(_:errors:at:)``).
struct TrackRecording: Sendable {
    /// What it recorded so far.
    struct Contents {
        /// Its track, given as the timeline lists it (``TrackRecording/storage()``).
        fileprivate(set) var track = -1
        /// Spans ended, oldest first.
        var closed: [TimelineSpan] = []
        /// Its open top-level span, and its open nested one (a wait for categories).
        var openSpan: TimelineSpan?
        var openNested: TimelineSpan?
        /// When it was cancelled, if it was.
        var cancelledAt: UInt64?
        var wasCancelled: Bool { cancelledAt != nil }
        /// It began executing (one finished without it was cancelled, skipped or failed a condition).
        var executed = false
        /// The keys of the categories, limits and permits it holds, until it finishes.
        var held: [String] = []
    }

    let track: Int
    private let locked: Locked<Contents>

    /// Where a recording keeps what it records: made before the timeline's lock is taken (two
    /// allocations), given its track under it (``init(track:storage:)``).
    static func storage() -> Locked<Contents> {
        var contents = Contents()
        contents.closed.reserveCapacity(6)  // an operation's spans without conditions: no regrowth
        return Locked(contents)
    }

    /// The recording of track `track`, in `storage` (``storage()``), which nothing reads yet.
    init(track: Int, storage: Locked<Contents>) {
        self.track = track
        storage.withLock { $0.track = track }
        locked = storage
    }

    /// A copy of what it recorded so far.
    var contents: Contents { locked.withLock { $0 } }

    /// The operation entered `state`: its open span ends, the state's own begins.
    func enter(_ state: ConditionalOperation.State, at now: UInt64) {
        locked.withLock { $0.enter(state, at: now) }
    }

    /// A condition answered `result`, evaluated from `start` to `end`.
    func addCondition(
        _ condition: any OperationCondition, _ result: OperationConditionResult, from start: UInt64,
        to end: UInt64
    ) {
        locked.withLock { contents in
            // Inside the span it was evaluated in: it began no earlier.
            let start = max(start, contents.openSpan?.start ?? start)
            contents.closed.append(
                TimelineSpan(
                    track: track, kind: .condition, start: start, end: end,
                    reason: .condition(condition, result)))
        }
    }

    /// A nested span (a wait for categories) begins.
    func openNested(_ kind: TimelineSpan.Kind, reason: TimelineSpan.Reason, at now: UInt64) {
        locked.withLock { contents in
            contents.closeNested(at: now)
            contents.openNested = TimelineSpan(track: track, kind: kind, start: now, reason: reason)
        }
    }

    /// It joined another operation (``TimelineSpan/Reason/joined(_:name:)``): its wait since it
    /// was added is for that one.
    func joined(_ reason: TimelineSpan.Reason, at now: UInt64) {
        locked.withLock { contents in
            let start = contents.openSpan?.start ?? now
            contents.openSpan = TimelineSpan(track: track, kind: .joined, start: start, reason: reason)
        }
    }

    /// It holds the categories of `keys` from now on: its wait for them ends.
    func acquired(_ keys: [String], at now: UInt64) {
        locked.withLock { contents in
            contents.closeNested(at: now)
            contents.held = keys
        }
    }

    func cancelled(at now: UInt64) {
        locked.withLock { $0.cancelledAt = $0.cancelledAt ?? now }
    }

    /// The operation finished: every span closed and taken out, with how it ran.
    func end(at now: UInt64) -> (spans: [TimelineSpan], wasCancelled: Bool, executed: Bool) {
        locked.withLock { contents in
            contents.closeAll(at: now)
            var spans: [TimelineSpan] = []
            swap(&spans, &contents.closed)
            return (spans, contents.wasCancelled, contents.executed)
        }
    }
}

extension TrackRecording.Contents {
    mutating func enter(_ state: ConditionalOperation.State, at now: UInt64) {
        if state == .executing { executed = true }
        closeNested(at: now)
        let kind = TimelineSpan.Kind(state)
        if let open = openSpan {
            if kind == open.kind { return }  // told again (the current state)
            close(open, at: now)
        }
        openSpan = kind.map { TimelineSpan(track: track, kind: $0, start: now) }
    }

    mutating func closeNested(at now: UInt64) {
        guard let nested = openNested else { return }
        openNested = nil
        close(nested, at: now)
    }

    mutating func closeAll(at now: UInt64) {
        closeNested(at: now)
        guard let open = openSpan else { return }
        openSpan = nil
        close(open, at: now)
    }

    mutating func close(_ span: TimelineSpan, at now: UInt64) {
        var closed = span
        closed.end = max(now, span.start)
        self.closed.append(closed)
    }
}
