/// The command line: `Benchmarks [scenario ...] [--n N[,N...]] [--rounds R] [--timeout S] [--side S] [--list]`.
struct Options {
    enum Action {
        case run([Scenario], Settings)
        case list
        case help
    }

    struct UsageError: Error {
        var message: String
    }

    static let usage = """
        usage: Benchmarks [scenario ...] [--n N[,N...]] [--rounds R] [--timeout S] [--side S] [--list]
          scenario     one or more names from --list (default: all)
          --n          sizes to run instead of each scenario's defaults, e.g. --n 2000,10000
          --rounds     measured rounds per side, after one warm-up round (default 5)
          --timeout    seconds one round of one side may take before it counts as STALLED
                       (default 60 s, growing with n² for chain-plain and fan-out)
          --side       run only one side, foundation or ours (for profilers)
          --list       list the scenarios
        Several scenarios run one after another, each in a fresh process of its own.
        Build and run in release: swift run -c release Benchmarks
        """

    static func parse(_ arguments: [String]) throws(UsageError) -> Action {
        var names: [String] = []
        var settings = Settings()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            if argument.hasPrefix("-"), argument != FreshProcess.rowsOption {
                settings.forwardedOptions.append(argument)
                if let value = remaining.first, !value.hasPrefix("-") {
                    settings.forwardedOptions.append(value)
                }
            }
            switch argument {
            case "--list": return .list
            case "--help", "-h": return .help
            case FreshProcess.rowsOption:
                settings.emitsRows = true
            case "--n":
                let words = try value(of: argument, &remaining).split(separator: ",")
                let sizes = words.compactMap { Int($0) }.filter { $0 > 0 }
                guard !sizes.isEmpty, sizes.count == words.count else {
                    throw UsageError(message: "--n takes positive integers separated by commas")
                }
                settings.sizes = sizes
            case "--rounds":
                guard let rounds = Int(try value(of: argument, &remaining)), rounds > 0 else {
                    throw UsageError(message: "--rounds takes a positive integer")
                }
                settings.rounds = rounds
            case "--timeout":
                guard let seconds = Double(try value(of: argument, &remaining)), seconds > 0 else {
                    throw UsageError(message: "--timeout takes a positive number of seconds")
                }
                settings.timeLimit = .milliseconds(Int64(seconds * 1000))
            case "--side":
                let name = try value(of: argument, &remaining)
                guard let side = Side.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() })
                else {
                    throw UsageError(message: "--side takes foundation or ours")
                }
                settings.sides = [side]
            case let option where option.hasPrefix("-"):
                throw UsageError(message: "unknown option \(option)")
            default:
                names.append(argument)
            }
        }
        let scenarios = try names.map { name throws(UsageError) in
            guard let scenario = Scenario.named(name) else {
                throw UsageError(message: "unknown scenario \(name) (see --list)")
            }
            return scenario
        }
        return .run(scenarios.isEmpty ? Scenario.all : scenarios, settings)
    }

    private static func value(of option: String, _ remaining: inout ArraySlice<String>) throws(UsageError)
        -> String
    {
        guard let value = remaining.popFirst() else { throw UsageError(message: "\(option) needs a value") }
        return value
    }
}
