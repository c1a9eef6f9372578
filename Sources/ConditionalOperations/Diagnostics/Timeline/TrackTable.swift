import Foundation

/// The rows of an ``OperationTimeline``, one per operation recorded, by track, in chunks of a
/// fixed size: adding a row never copies the ones before it (one array of every row was copied
/// whole each time it grew, under the timeline's lock), and a chunk whose rows are all gone (their
/// operations finished and had every span dropped) is let go of: a timeline attached for the life
/// of a server keeps its memory within its capacity, but for a chunk of rows per operation that
/// runs for as long.
///
/// The thread adding operations writes it, under a lock of its own: an operation finishing does
/// not write its row (its recording says how it ended), so that the threads finishing operations
/// and the one adding them share no lock.
struct TrackTable: Sendable {
    private static let chunkShift = 10
    static let chunkSize = 1 << chunkShift
    private static let chunkMask = chunkSize - 1

    private struct Chunk: Sendable {
        /// `nil` once every row is gone.
        var rows: [TimelineTrack]?
        /// How many of its rows are gone (``letGo(_:)``).
        var gone = 0
    }

    private var chunks: [Chunk] = []
    /// How many rows were ever added: the next row's track.
    private(set) var count = 0
    /// How many rows are kept (not gone).
    private(set) var keptCount = 0

    /// Whether the row of `track` is kept: not gone, nor let go of with its chunk.
    func contains(_ track: Int) -> Bool {
        track >= 0 && track < count
            && chunks[track >> Self.chunkShift].rows?[track & Self.chunkMask].isGone == false
    }

    /// Runs `body` on the row of `track`, which is kept (``contains(_:)``), in one access.
    @inline(__always)
    mutating func update<Result>(_ track: Int, _ body: (inout TimelineTrack) -> Result) -> Result {
        body(&chunks[track >> Self.chunkShift].rows![track & Self.chunkMask])
    }

    /// The row of `track`, which is kept (``contains(_:)``).
    subscript(track: Int) -> TimelineTrack {
        get { chunks[track >> Self.chunkShift].rows![track & Self.chunkMask] }
        _modify { yield &chunks[track >> Self.chunkShift].rows![track & Self.chunkMask] }
    }

    /// Adds the row of `recording`, made in its chunk (one made by the caller would be copied
    /// into it, each of its references retained again), and gives the recording its track.
    mutating func append(
        _ recording: TrackRecording, type: Foundation.Operation.Type, name: String?, parent: Int?,
        queue: ObjectIdentifier?
    ) {
        recording.track = count
        if count & Self.chunkMask == 0 {
            var rows: [TimelineTrack] = []
            rows.reserveCapacity(Self.chunkSize)
            chunks.append(Chunk(rows: rows))
        }
        chunks[chunks.count - 1].rows!.append(
            TimelineTrack(recording, type: type, name: name, parent: parent, queue: queue))
        count += 1
        keptCount += 1
    }

    /// The operations of `tracks` finished and every span they made was dropped: their rows are
    /// gone (those gone already stay so), and let go of their recordings. Returns the rows of the
    /// chunks whose rows are all gone, and the recordings: to be let go of outside the timeline's
    /// locks (they hold what the operations' spans held and the errors they finished with).
    mutating func letGo(_ tracks: some Sequence<Int>) -> (
        chunks: [[TimelineTrack]], recordings: [TrackRecording]
    ) {
        var letGo: (chunks: [[TimelineTrack]], recordings: [TrackRecording]) = ([], [])
        for track in tracks where contains(track) {
            let index = track >> Self.chunkShift
            let recording = update(track) { row in
                row.isGone = true
                return row.recording.take()
            }
            if let recording { letGo.recordings.append(recording) }
            keptCount -= 1
            chunks[index].gone += 1
            if chunks[index].gone == Self.chunkSize, let rows = chunks[index].rows.take() {
                letGo.chunks.append(rows)
            }
        }
        return letGo
    }

    /// The tracks kept, in order.
    var indices: [Int] {
        chunks.indices.flatMap { index in
            chunks[index].rows.map { rows in
                rows.indices.filter { !rows[$0].isGone }.map { (index << Self.chunkShift) + $0 }
            } ?? []
        }
    }

    /// The rows kept, in order of their tracks.
    var rows: [TimelineTrack] { chunks.flatMap { ($0.rows ?? []).filter { !$0.isGone } } }
}
