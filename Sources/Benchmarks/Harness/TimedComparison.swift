/// Times both sides of a matchup on a plain `OperationQueue` and reports the medians.
struct TimedComparison: Sendable {
    var matchup: Matchup
    /// Size of the warm-up rounds; smaller than `n` where Foundation's cost is quadratic.
    var warmupSize: @Sendable (_ n: Int) -> Int = { $0 }

    func run(label: String, n: Int, settings: Settings, limit: Duration, target: Target?) -> Row {
        let matchup = matchup
        let warmup = warmupSize(n)
        let alternation = Alternation(
            label: "\(label) n=\(n)", rounds: settings.rounds, limit: limit, sides: settings.sides)
        let result = alternation.run(
            warmup: { side in Trial.run(matchup.contender(side), matchup.shape, n: warmup) },
            round: { side in Trial.run(matchup.contender(side), matchup.shape, n: n) })
        switch result {
        case .failure(let failure):
            return Row(label: label, n: n, failure: failure)
        case .success(let samples):
            let foundation = samples[.foundation] ?? []
            let ours = samples[.ours] ?? []
            let extra = ours.compactMap(\.retainedBytesPerOperation).median.flatMap { oursBytes in
                foundation.compactMap(\.retainedBytesPerOperation).median.map { oursBytes - $0 }
            }
            return Row(
                label: label, n: n,
                figures: .time(
                    foundation: foundation.map(\.elapsed).median, ours: ours.map(\.elapsed).median,
                    ratio: Row.pairedRatio(foundation.map(\.elapsed), ours.map(\.elapsed)),
                    operations: (ours.first ?? foundation.first)?.operations ?? n, extraRetainedBytes: extra),
                target: target)
        }
    }
}
