/// A named benchmark. Each lives in its own file under `Scenarios/` and is listed in
/// ``Scenario/all``.
struct Scenario: Sendable {
    var name: String
    var summary: String
    /// Sizes run when `--n` is not given.
    var defaultSizes: [Int]
    /// Bound of one round of one side at size `n`, unless `--timeout` overrides it.
    var timeLimit: @Sendable (_ n: Int) -> Duration = { _ in .seconds(60) }
    /// The rows of one size.
    var measure: @Sendable (_ n: Int, _ settings: Settings, _ limit: Duration) -> [Row]
    /// A line under the table about all of the scenario's rows, if it has something to add.
    var footnote: @Sendable (_ rows: [Row]) -> String? = { _ in nil }

    /// Runs every size and returns the rows.
    func run(_ settings: Settings) -> [Row] {
        (settings.sizes ?? defaultSizes).flatMap { n in
            Log.progress("== \(name) n=\(n)")
            return measure(n, settings, settings.timeLimit ?? timeLimit(n))
        }
    }

    /// A bound for Foundation's quadratic shapes (chain, fan-out): 60 s up to 10k operations,
    /// growing with the square of `n` beyond, so only a real stall trips it.
    static func quadraticLimit(_ n: Int) -> Duration {
        let scale = max(1, Double(n) / 10_000)
        return .seconds(60 * scale * scale)
    }
}

/// What the command line chose.
struct Settings: Sendable {
    var rounds = 5
    /// Overrides every scenario's default sizes.
    var sizes: [Int]?
    /// Overrides every scenario's per-round bound.
    var timeLimit: Duration?
    /// The sides to run; one alone is for profiling (`--side ours` under valgrind).
    var sides: [Side] = Side.allCases
    /// The options as given, for the process of each scenario (see ``FreshProcess``).
    var forwardedOptions: [String] = []
    /// Print the rows as JSON for a parent process instead of a table.
    var emitsRows = false
}
