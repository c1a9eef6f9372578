import Foundation

/// What one round of one side produced.
protocol RoundSample: Sendable {
    /// Why the round's result cannot be trusted, if it cannot.
    var problem: String? { get }
    /// A few words for the progress log.
    var summary: String { get }
}

/// Why a scenario has no figures.
enum ScenarioFailure: Error {
    /// A round did not come back within its time bound.
    case stalled(String)
    /// A round came back with a wrong result.
    case failed(String)
}

/// Runs both sides in one process, alternately, for several rounds after a warm-up.
///
/// Alternating (Foundation first in even rounds, ours first in odd ones) exposes both sides to
/// the same machine noise, so the ratio of their medians is steadier than either figure.
struct Alternation {
    var label: String
    var rounds: Int
    /// Bound of one round of one side, warm-up included.
    var limit: Duration
    var sides: [Side] = Side.allCases

    func run<Sample: RoundSample>(
        warmup: (@Sendable (Side) -> Sample)?,
        round: @escaping @Sendable (Side) -> Sample
    ) -> Result<[Side: [Sample]], ScenarioFailure> {
        if let warmup {
            for side in sides {
                switch once(side, "warm-up", warmup) {
                case .success: break
                case .failure(let failure): return .failure(failure)
                }
            }
        }
        var samples: [Side: [Sample]] = [:]
        for index in 0..<rounds {
            let order: [Side] = index.isMultiple(of: 2) ? [.foundation, .ours] : [.ours, .foundation]
            var line: [String] = []
            for side in order where sides.contains(side) {
                switch once(side, "round \(index + 1)/\(rounds)", round) {
                case .success(let sample):
                    samples[side, default: []].append(sample)
                    line.append("\(side.rawValue) \(sample.summary)")
                case .failure(let failure):
                    return .failure(failure)
                }
            }
            Log.progress("\(label) round \(index + 1)/\(rounds): " + line.joined(separator: ", "))
        }
        return .success(samples)
    }

    private func once<Sample: RoundSample>(
        _ side: Side, _ phase: String, _ body: @escaping @Sendable (Side) -> Sample
    ) -> Result<Sample, ScenarioFailure> {
        guard let sample = Watchdog.run(limit: limit, { body(side) }) else {
            let message = "\(phase), \(side.rawValue): no completion within \(Format.seconds(limit))"
            Log.progress("\(label) STALLED: \(message)")
            return .failure(.stalled(message))
        }
        if let problem = sample.problem {
            let message = "\(phase), \(side.rawValue): \(problem)"
            Log.progress("\(label) FAILED: \(message)")
            return .failure(.failed(message))
        }
        return .success(sample)
    }
}

/// Progress on standard error, so standard output holds the table alone.
enum Log {
    static func progress(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}
