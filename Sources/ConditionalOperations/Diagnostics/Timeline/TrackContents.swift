/// An operation's spans, as a replay of its ``TrackLog`` makes them: those closed, oldest first,
/// the open ones, and what it holds.
struct TrackContents {
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
    /// When it finished, and with which errors, once it did.
    var finished: (at: UInt64, errors: [any Error])?

    mutating func enter(_ state: ConditionalOperation.State, track: Int, at now: UInt64) {
        closeNested(at: now)
        let kind = TimelineSpan.Kind(state)
        if let open = openSpan {
            if kind == open.kind { return }  // told again (the current state)
            openSpan = nil
            close(open, at: now)
        }
        if let kind { openSpan = TimelineSpan(track: track, kind: kind, start: now) }
    }

    mutating func apply(_ detail: TrackLog.Detail, track: Int, at now: UInt64) {
        switch detail {
        case .condition(let condition, let result, _, let elapsed):
            // Inside the span it was evaluated in: it began no earlier.
            let start = max(now &- min(elapsed, now), openSpan?.start ?? 0)
            closed.append(
                TimelineSpan(
                    track: track, kind: .condition, start: start, end: now,
                    reason: .condition(condition, result)))
        case .waitingForCategories(let keys, let ahead):
            closeNested(at: now)
            openNested = TimelineSpan(
                track: track, kind: .categories, start: now, reason: .categories(keys, ahead: ahead))
        case .joined(let type, let name):
            // Its wait since it was added is for the operation it joined.
            let start = openSpan?.start ?? now
            openSpan = TimelineSpan(
                track: track, kind: .joined, start: start, reason: .joined(type, name: name))
        case .holding(let keys):
            // It holds them from now on: its wait for them ends.
            closeNested(at: now)
            held = keys
        }
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

    private mutating func close(_ span: consuming TimelineSpan, at now: UInt64) {
        span.end = max(now, span.start)
        closed.append(span)
    }
}

extension TrackContents {
    /// How an operation ended, or that it did not yet: what its row shows besides its spans.
    struct Ending {
        var wasCancelled: Bool
        var executed: Bool
        var finished: (at: UInt64, errors: [any Error])?
    }

    var ending: Ending { Ending(wasCancelled: wasCancelled, executed: executed, finished: finished) }
}
