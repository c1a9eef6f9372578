import Synchronization

/// Counts observer callbacks, so a run that "finished" without telling every observer is caught.
enum Tally {
    static let finishes = Atomic<Int>(0)

    static func reset() {
        finishes.store(0, ordering: .relaxed)
    }

    static var finishCount: Int { finishes.load(ordering: .relaxed) }
}
