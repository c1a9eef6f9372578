/// The operations an ``OperationTimeline`` began to record and has not listed in its rows yet
/// (``TrackTable``), behind a lock of their own: the thread adding operations takes this one alone,
/// for one append, and whoever reads or changes the rows (the timeline's queue making rows gone,
/// an export) moves them there first, under the rows' lock. So the thread adding operations does
/// not wait for the rows' lock, which the timeline's queue holds while it lets go of rows.
struct TrackArrivals {
    /// How many arrivals make the thread adding operations list them itself
    /// (``TimelineStorage/addTrack(lockedBy:type:name:parent:queue:)``): this list stays short
    /// when nothing else lists them.
    static let listedAtOnce = TrackTable.chunkSize

    /// How many operations arrived, ever: the next one's track.
    private(set) var count = 0
    /// Those not listed in the rows yet, in the order of their tracks.
    private var waiting: [TrackRecording] = []

    /// `recording` arrived: it is given its track. Returns whether ``listedAtOnce`` wait.
    mutating func add(_ recording: TrackRecording) -> Bool {
        recording.track = count
        count += 1
        waiting.append(recording)
        return waiting.count >= Self.listedAtOnce
    }

    /// Those waiting, taken out to be listed (in the order of their tracks).
    mutating func take() -> [TrackRecording] {
        guard !waiting.isEmpty else { return [] }
        var taken: [TrackRecording] = []
        taken.reserveCapacity(Self.listedAtOnce)
        swap(&taken, &waiting)
        return taken
    }
}
