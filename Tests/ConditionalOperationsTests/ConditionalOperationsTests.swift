import Testing

/// Every suite of the package nests in this one, which runs them one after another: the heavy
/// tests (10k operations on Foundation's queues) would otherwise starve the dispatch pool that the
/// timing-bounded tests of other suites need. While it runs, the library's diagnostics are
/// captured (``CapturedOutput``), so a passing run prints the runner's lines alone.
@Suite(.serialized, .capturedOutput) struct ConditionalOperationsTests {}
