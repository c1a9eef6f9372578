@testable import ConditionalOperations

/// Runs `body` in a task of its own and returns its outcome, or `nil` once `seconds` passed first,
/// so that a wait that never ends fails the test instead of hanging it.
func within<T: Sendable>(seconds: Double = 10, _ body: @escaping @Sendable () async throws -> T) async
    -> Result<
        T, any Error
    >?
{
    let outcome = Locked<Result<T, any Error>?>(nil)
    let done = Latch()
    Task {
        do {
            let value = try await body()
            outcome.withLock { $0 = .success(value) }
        } catch {
            outcome.withLock { $0 = .failure(error) }
        }
        done.countDown()
    }
    guard await done.wait(seconds: seconds) else { return nil }
    return outcome.withLock { $0 }
}

/// An operation that finishes only when told to, from the test.
final class HeldOperation: ResultOperation<Int>, @unchecked Sendable {
    // stored state: lets only (a latch)
    let executing = Latch()

    override func execute() {
        executing.countDown()
    }
}

/// Returns once the calling task is cancelled (or after 20 s, so that a missed cancel fails a test
/// instead of hanging it).
func untilCancelled() async {
    let cancelled = Latch()
    await withTaskCancellationHandler {
        _ = await cancelled.wait(seconds: 20)
    } onCancel: {
        cancelled.countDown()
    }
}

extension Result {
    /// The error of a failure, for `#expect(outcome?.failure is SomeError)`.
    var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}
