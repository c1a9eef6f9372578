import Testing

@testable import ConditionalOperations

/// While the suite it is applied to runs, the library's debug diagnostics ("finish called again
/// and ignored") go to ``Printed`` instead of standard error. A test that checks them in a child
/// process (an exit test) still sees them on standard error: the child runs without this scope.
struct CapturedOutput: SuiteTrait, TestScoping {
    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let previous = MisuseLog.sink.withLock { sink in
            defer { sink = { Printed.append($0 + "\n") } }
            return sink
        }
        defer { MisuseLog.sink.withLock { $0 = previous } }
        try await function()
    }
}

extension Trait where Self == CapturedOutput {
    /// See ``CapturedOutput``.
    static var capturedOutput: Self { CapturedOutput() }
}
