/// A figure a row must reach: the targets of the README's performance table.
enum Target: Sendable, Codable {
    /// ours / Foundation at most this.
    case ratio(Double)
    /// ours − Foundation at most this many bytes per operation.
    case extraBytes(Double)

    /// `nil` when the row has no figure to judge.
    func isMet(by figures: Row.Figures) -> Bool? {
        switch (self, figures) {
        case (.ratio(let limit), .time(_, _, let ratio?, _, _)):
            ratio <= limit
        case (.ratio(let limit), .memory(let foundation?, let ours?)):
            ours / foundation <= limit
        case (.extraBytes(let limit), .memory(let foundation?, let ours?)):
            ours - foundation <= limit
        case (.extraBytes(let limit), .time(_, _, _, _, let extra?)):
            extra <= limit
        default:
            nil
        }
    }

    var description: String {
        switch self {
        case .ratio(let limit): "ratio ≤ \(Format.ratio(limit))"
        case .extraBytes(let limit): "extra ≤ \(Format.bytes(limit))"
        }
    }
}
