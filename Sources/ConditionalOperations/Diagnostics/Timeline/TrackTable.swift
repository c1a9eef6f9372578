import Foundation

/// The operations an ``OperationTimeline`` recorded, by track: each one's recording, which holds
/// what its row shows (an export makes the rows, ``TimelineRows``), in chunks of a fixed size.
/// Listing one never copies those before it, and a chunk whose operations are all gone (they
/// finished and had every span dropped) is let go of: a timeline attached for the life of a server
/// keeps its memory within its capacity, but for a chunk per operation that runs for as long.
///
/// Behind a lock of its own, which the thread adding operations does not take but once a chunk:
/// they arrive in ``TrackArrivals`` and are listed here by whoever takes this lock next. Nor do the
/// threads finishing operations: a recording says how its operation ended.
struct TrackTable: Sendable {
    private static let chunkShift = 10
    static let chunkSize = 1 << chunkShift
    private static let chunkMask = chunkSize - 1

    private struct Chunk: Sendable {
        /// `nil` once every operation in it is gone; an operation's entry is `nil` once it is.
        var recordings: [TrackRecording?]?
        /// How many of its operations are gone (``letGo(_:)``).
        var gone = 0
    }

    /// What little is said of a row after it was listed, rarely: kept beside the rows, not in
    /// each, until the row is gone.
    struct Note: Sendable {
        /// It is a composite running this many operations the timeline does not record (not
        /// `ConditionalOperation`s) that have not finished.
        var unrecordedRunning = 0
    }

    private var chunks: [Chunk] = []
    /// How many operations were listed: the next one's track.
    private(set) var count = 0
    /// How many are kept (not gone).
    private(set) var keptCount = 0
    private(set) var notes: [Int: Note] = [:]

    /// Whether the operation of `track` is listed and kept: not gone.
    func contains(_ track: Int) -> Bool { recording(track) != nil }

    /// The recording of `track`, if it is kept.
    func recording(_ track: Int) -> TrackRecording? {
        guard track >= 0, track < count else { return nil }
        return chunks[track >> Self.chunkShift].recordings?[track & Self.chunkMask]
    }

    /// Lists `arrived`, given their tracks in order from ``count`` on (``TrackArrivals``).
    mutating func list(_ arrived: [TrackRecording]) {
        for recording in arrived {
            precondition(recording.track == count, "timeline: tracks listed out of order")
            if count & Self.chunkMask == 0 {
                var recordings: [TrackRecording?] = []
                recordings.reserveCapacity(Self.chunkSize)
                chunks.append(Chunk(recordings: recordings))
            }
            chunks[chunks.count - 1].recordings!.append(recording)
            count += 1
            keptCount += 1
        }
    }

    /// Changes the note of `track`, if it is kept; one left as it began is not kept.
    mutating func note(_ track: Int, _ body: (inout Note) -> Void) {
        guard contains(track) else { return }
        var note = notes[track] ?? Note()
        body(&note)
        notes[track] = note.unrecordedRunning == 0 ? nil : note
    }

    /// The operations of `tracks` finished and every span they made was dropped: they are gone
    /// (those gone already stay so). Returns their recordings, to be let go of outside the
    /// timeline's locks: they hold what the operations' spans held and the errors they finished
    /// with.
    mutating func letGo(_ tracks: some Sequence<Int>) -> [TrackRecording] {
        var letGo: [TrackRecording] = []
        for track in tracks {
            guard let recording = self.recording(track) else { continue }
            let index = track >> Self.chunkShift
            chunks[index].recordings![track & Self.chunkMask] = nil
            letGo.append(recording)
            notes[track] = nil
            keptCount -= 1
            chunks[index].gone += 1
            if chunks[index].gone == Self.chunkSize { chunks[index].recordings = nil }
        }
        return letGo
    }

    /// The recordings kept, with their tracks, in order.
    var kept: [(track: Int, recording: TrackRecording)] {
        chunks.indices.flatMap { index in
            (chunks[index].recordings ?? []).enumerated().compactMap { offset, recording in
                recording.map { ((index << Self.chunkShift) + offset, $0) }
            }
        }
    }
}
