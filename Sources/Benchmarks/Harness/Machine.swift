import Foundation

/// The machine the figures come from, for the table's first line.
enum Machine {
    static var description: String {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        return
            "machine: \(cores) cores, \(cpuModel ?? "unknown CPU"), \(ProcessInfo.processInfo.operatingSystemVersionString)"
    }

    private static var cpuModel: String? {
        guard let cpuinfo = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return nil }
        let line = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
        return line?.split(separator: ":", maxSplits: 1).last?.trimmingCharacters(in: .whitespaces)
    }
}
