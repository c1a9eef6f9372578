import Foundation

// Benchmarks the library against Foundation's own operations; see Options.usage.
// Exits 1 if any scenario stalled or produced a wrong result, 2 on a usage error.

let action: Options.Action
do {
    action = try Options.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    Log.progress("Benchmarks: \(error.message)\n\(Options.usage)")
    exit(2)
}

switch action {
case .help:
    print(Options.usage)
case .list:
    let width = Scenario.all.map(\.name.count).max() ?? 0
    for scenario in Scenario.all {
        let sizes = scenario.defaultSizes.map(String.init).joined(separator: ",")
        print(
            scenario.name.padding(toLength: width, withPad: " ", startingAt: 0)
                + "  n=\(sizes)  \(scenario.summary)")
    }
case .run(let scenarios, let settings):
    #if DEBUG
        Log.progress(
            "warning: a debug build measures the optimiser's absence; use swift run -c release Benchmarks")
    #endif
    var rows: [Row] = []
    var footnotes: [String] = []
    let freshProcesses = scenarios.count > 1 && !settings.emitsRows
    for scenario in scenarios {
        let scenarioRows =
            freshProcesses
            ? FreshProcess.rows(of: scenario, arguments: settings.forwardedOptions) : scenario.run(settings)
        rows += scenarioRows
        if let footnote = scenario.footnote(scenarioRows) { footnotes.append(footnote) }
    }
    if settings.emitsRows {
        FreshProcess.emit(rows)
        exit(0)
    }
    print(ResultTable(rows: rows, settings: settings, footnotes: footnotes).render())
    if rows.contains(where: \.isFailure) { exit(1) }
}
