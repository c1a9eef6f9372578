/// The rows an export of an ``OperationTimeline`` shows, by track: those of the operations kept
/// (running, or finished with spans kept), made of their recordings when the timeline was read.
struct TimelineRows: Sendable {
    private let byTrack: [Int: TimelineTrack]
    /// The tracks shown, in order.
    let indices: [Int]
    /// How many operations were recorded, those gone included.
    let count: Int

    init(_ rows: [(track: Int, row: TimelineTrack)], recorded count: Int) {
        byTrack = Dictionary(rows.map { ($0.track, $0.row) }, uniquingKeysWith: { first, _ in first })
        indices = rows.map(\.track).sorted()
        self.count = count
    }

    /// How many operations are shown.
    var keptCount: Int { indices.count }

    /// Whether the row of `track` is shown.
    func contains(_ track: Int) -> Bool { byTrack[track] != nil }

    /// The row of `track`, which is shown (``contains(_:)``).
    subscript(track: Int) -> TimelineTrack { byTrack[track]! }

    /// The rows shown, in order of their tracks.
    var rows: [TimelineTrack] { indices.map { byTrack[$0]! } }
}
