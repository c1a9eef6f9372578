import ConditionalOperations

/// The library's counterpart of `BlockOperation {}`: the default `execute()` finishes at once,
/// so a run measures the library's own overhead and nothing else.
final class NoopOperation: ConditionalOperation, @unchecked Sendable {}  // no stored state of its own
