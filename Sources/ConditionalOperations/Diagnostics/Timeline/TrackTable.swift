import Foundation

/// The rows of an ``OperationTimeline``, one per operation recorded, by track, in chunks of a
/// fixed size: adding a row never copies the ones before it (one array of every row was copied
/// whole each time it grew, under the timeline's lock, while the operations finishing waited for
/// that lock), and a chunk whose operations all finished and had every span dropped is let go of:
/// a timeline attached for the life of a server keeps its memory within its capacity, but for
/// a chunk of rows per operation that runs for as long.
struct TrackTable: Sendable {
    private static let chunkShift = 10
    static let chunkSize = 1 << chunkShift
    private static let chunkMask = chunkSize - 1

    private struct Chunk: Sendable {
        /// `nil` once every row is gone.
        var rows: [TimelineTrack]?
        /// How many of its rows are gone (``markGone(_:)``).
        var gone = 0
    }

    private var chunks: [Chunk] = []
    /// How many rows were ever added: the next row's track.
    private(set) var count = 0
    /// How many rows are kept.
    private(set) var keptCount = 0

    /// Whether the row of `track` is kept (not let go of with its chunk).
    func contains(_ track: Int) -> Bool {
        track >= 0 && track < count && chunks[track >> Self.chunkShift].rows != nil
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

    /// Adds the row of `recording`, made in its chunk: one made by the caller would be copied
    /// into it, each of its references retained again.
    mutating func append(
        _ recording: TrackRecording, type: Foundation.Operation.Type, name: String?, parent: Int?,
        queue: ObjectIdentifier?
    ) {
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

    /// The operation of `track` finished and every span it made was dropped: its row is gone.
    /// Returns the rows of its chunk if that was the last of them, to be let go of outside the
    /// timeline's lock (they hold the errors the operations finished with).
    mutating func markGone(_ track: Int) -> [TimelineTrack]? {
        let index = track >> Self.chunkShift
        chunks[index].gone += 1
        guard chunks[index].gone == Self.chunkSize else { return nil }
        defer { chunks[index].rows = nil }
        keptCount -= Self.chunkSize
        return chunks[index].rows
    }

    /// The tracks kept, in order.
    var indices: [Int] {
        chunks.indices.flatMap { index in
            chunks[index].rows.map { rows in (0..<rows.count).map { (index << Self.chunkShift) + $0 } } ?? []
        }
    }

    /// The rows kept, in order of their tracks.
    var rows: [TimelineTrack] { chunks.flatMap { $0.rows ?? [] } }
}
