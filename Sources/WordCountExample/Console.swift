import Foundation

/// The program's output besides what the operations print: section titles, indented lines, and
/// the way out when something went wrong.
enum Console {
    /// A blank line, then `title` as a heading.
    static func section(_ title: String) {
        print("\n── \(title) ──")
    }

    /// Each of `lines`, indented.
    static func printLines(_ lines: [String]) {
        for line in lines { print("  \(line)") }
    }

    /// `count` and `noun`, in the plural unless `count` is 1: "1 file", "3 files".
    static func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    /// Ends the program with status 1 unless `condition` holds: CI runs the example, and a
    /// demonstration that did not happen must fail it.
    static func expect(_ condition: Bool, _ what: String) {
        guard !condition else { return }
        exit(because: "expected that \(what)")
    }

    /// Prints `error` to standard error and ends the program with status 1.
    static func exit(because error: Any) -> Never {
        FileHandle.standardError.write(Data("WordCountExample: \(error)\n".utf8))
        Foundation.exit(1)
    }
}
