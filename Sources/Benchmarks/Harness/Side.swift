/// Which implementation a measurement belongs to.
enum Side: String, Sendable, CaseIterable {
    case foundation = "Foundation"
    case ours = "ours"
}

extension Matchup {
    func contender(_ side: Side) -> Contender {
        switch side {
        case .foundation: foundation
        case .ours: ours
        }
    }
}
