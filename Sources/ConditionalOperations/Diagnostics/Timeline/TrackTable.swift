/// The rows of an ``OperationTimeline``, one per operation recorded, in chunks of a fixed size:
/// adding a row never copies the ones before it. One array of every row was copied whole each
/// time it grew, under the timeline's lock, while the operations finishing waited for that lock
/// (at 100k operations, a copy of megabytes).
struct TrackTable {
    private static let chunkShift = 10
    private static let chunkSize = 1 << chunkShift
    private static let chunkMask = chunkSize - 1

    /// Every chunk full but the last.
    private var chunks: [[TimelineTrack]] = []
    private(set) var count = 0

    var indices: Range<Int> { 0..<count }

    subscript(track: Int) -> TimelineTrack {
        get { chunks[track >> Self.chunkShift][track & Self.chunkMask] }
        _modify { yield &chunks[track >> Self.chunkShift][track & Self.chunkMask] }
    }

    mutating func append(_ row: consuming TimelineTrack) {
        if count & Self.chunkMask == 0 {
            var chunk: [TimelineTrack] = []
            chunk.reserveCapacity(Self.chunkSize)
            chunks.append(chunk)
        }
        chunks[chunks.count - 1].append(row)
        count += 1
    }

    /// Every row, in one array: for the exports, made outside the timeline's lock (the chunks
    /// are shared with the table until then, not copied).
    var rows: [TimelineTrack] { Array(chunks.joined()) }
}
