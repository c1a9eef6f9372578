import Foundation

/// Debug-build messages about ignored misuse: to standard error, unless a test captures them.
enum MisuseLog {
    /// Where the messages go. The library's test suite swaps it for a buffer while it runs, so that
    /// a passing run prints the test runner's lines alone.
    static let sink = Locked<@Sendable (String) -> Void>(MisuseLog.writeToStandardError)

    static func writeToStandardError(_ line: String) {
        FileHandle.standardError.write(Data("\(line)\n".utf8))
    }

    static func log(_ message: String) {
        let write = sink.withLock { $0 }
        write("ConditionalOperations: \(message)")
    }
}
