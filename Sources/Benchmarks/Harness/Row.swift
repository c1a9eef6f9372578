/// One line of the results table.
struct Row: Sendable, Codable {
    var label: String
    var n: Int
    var figures: Figures
    var target: Target?

    enum Figures: Sendable, Codable {
        /// Median times of "create + wire + add + run to completion"; `nil` for a side not run.
        /// `ratio` is the median of the rounds' own ours/Foundation ratios (see ``pairedRatio(_:_:)``).
        case time(
            foundation: Duration?, ours: Duration?, ratio: Double?, operations: Int,
            extraRetainedBytes: Double?)
        /// Median heap bytes per live operation; `nil` for a side not run.
        case memory(foundation: Double?, ours: Double?)
        case stalled(String)
        case failed(String)
        /// The figure cannot be measured on this platform.
        case unavailable(String)
    }

    init(label: String, n: Int, figures: Figures, target: Target? = nil) {
        self.label = label
        self.n = n
        self.figures = figures
        self.target = target
    }

    init(label: String, n: Int, failure: ScenarioFailure) {
        switch failure {
        case .stalled(let message): self.init(label: label, n: n, figures: .stalled(message))
        case .failed(let message): self.init(label: label, n: n, figures: .failed(message))
        }
    }

    /// The median of per-round ratios. Both sides of a round run back to back, so a slow spell
    /// of the machine (another process, a thermal dip) mostly hits both and cancels out in the
    /// round's ratio, while it would shift one side's median alone.
    static func pairedRatio(_ foundation: [Duration], _ ours: [Duration]) -> Double? {
        zip(foundation, ours).map { $1.seconds / $0.seconds }.median
    }

    /// A stall or a wrong result makes the whole run fail.
    var isFailure: Bool {
        switch figures {
        case .stalled, .failed: true
        case .time, .memory, .unavailable: false
        }
    }
}
