@testable import ConditionalOperations

/// A passing `swift test` prints the test runner's lines alone. The documentation samples' twins
/// print, as a reader's program would: in this module `print` writes into ``Printed`` instead of
/// standard output, and the library's debug diagnostics go there too while the suite runs
/// (``CapturedOutput``). A test that needs what was printed reads ``Printed/lines``.
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    Printed.append(items.map { "\($0)" }.joined(separator: separator) + terminator)
}

/// What this module printed, and the library's diagnostics while the suite ran; the newest
/// `capacity` lines are kept.
enum Printed {
    static let capacity = 10_000
    private static let text = Locked<[String]>([])

    static func append(_ output: String) {
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).dropLast(
            output.hasSuffix("\n") ? 1 : 0
        ).map(String.init)
        text.withLock {
            $0.append(contentsOf: lines)
            if $0.count > capacity { $0.removeFirst($0.count - capacity) }
        }
    }

    static var lines: [String] { text.withLock { $0 } }
}
