import Foundation

/// An operation that produces a value of type `Output`, or fails.
///
/// Subclass it, compute the value in ``ConditionalOperation/execute()`` and finish with
/// ``finish(returning:)`` (or ``finish(with:)``); a `ResultOperation<Void>` may finish with a
/// plain `finish()`, which returns `()` (S23). Once it finished, ``result`` holds the outcome,
/// and a consumer receives the value through ``ConditionalOperation/inject(from:_:)``, without
/// an operation in between to carry it.
///
/// ```swift
/// final class FetchUsers: ResultOperation<[User]>, @unchecked Sendable {
///     override func execute() {
///         api.users { result in self.finish(with: result) }
///     }
/// }
/// ```
open class ResultOperation<Output: Sendable>: ConditionalOperation, @unchecked Sendable {
    // mutable state: `lockedOutput`, behind the operation's own lock, in the machine's trips
    // (`finish(errors:recording:)`, `finishingSnapshot(reading:)`)
    /// The value given to the first ``finish(returning:)``, an `Output`. Only reached under the
    /// operation's own lock, which makes every access exclusive. Not an `Output?`: that would
    /// look up `Optional<Output>`'s metadata at run time on each store and in the deinit.
    @exclusivity(unchecked) private var lockedOutput: (any Sendable)?

    /// Creates the operation.
    public override init() {
        super.init()
    }

    /// The outcome, once the operation is finishing or finished; `nil` before.
    ///
    /// - `.failure` with the first of ``ConditionalOperation/errors`` if there is any (a failed
    ///   condition, a cancel error, a finish error); `.failure(CancellationError())` if the
    ///   operation was cancelled without an error.
    /// - `.success` with the value of ``finish(returning:)`` otherwise.
    /// - `nil` if it finished without errors and without a value (a plain `finish()`), or a
    ///   condition skipped it (S17).
    ///
    /// An operation whose `Output` is `Void` has nothing to return: a plain `finish()` (or
    /// `finish(errors: [])`) is `finish(returning: ())`, so its result is `.success(())` (S23).
    public var result: Result<Output, any Error>? {
        let (state, errors, cancelled, output) = finishingSnapshot { lockedOutput }
        guard state >= .finishing else { return nil }
        if let error = errors.first { return .failure(error) }
        if cancelled { return .failure(CancellationError()) }
        if let output { return .success(output as! Output) }
        // S23, read here rather than stored by every finish: only a Void output pays for it. A
        // skipped operation did not run, and has no output to hand over (S17).
        guard Output.self == Void.self, !isSkipped else { return nil }
        return .success(() as! Output)
    }

    /// Finishes the operation successfully with `output`. As for every `finish`, the first call
    /// wins (S6): a later value is ignored, and an operation cancelled meanwhile fails.
    public final func finish(returning output: Output) {
        finish(returning: output, recording: { _ in })
    }

    /// ``finish(returning:)``, with `record` run in the same trip through the lock, as for
    /// ``ConditionalOperation/finish(errors:recording:)``.
    @discardableResult
    @inline(__always)
    final func finish<Recorded>(
        returning output: Output, recording record: (_ earlierFinishWon: Bool) -> Recorded
    ) -> Recorded {
        // Stored in the finish's own trip: a value given after an earlier finish (once finishing
        // began, or a `finish()` before executing) would turn its `nil` result into a success.
        finish(errors: []) { earlierFinishWon in
            if !earlierFinishWon, lockedOutput == nil { lockedOutput = output }
            return record(earlierFinishWon)
        }
    }

    /// S27: what a joiner adopts.
    override func outputUnderLock() -> (any Sendable)? { lockedOutput }

    /// S27: nothing was stored yet (the joiner did not execute), so nothing is let go of here.
    override func adoptOutputUnderLock(_ output: (any Sendable)?) {
        if lockedOutput == nil { lockedOutput = output }
    }

    /// Finishes the operation with `result`: ``finish(returning:)`` for a success, and
    /// ``ConditionalOperation/finish(error:)`` for a failure.
    public final func finish(with result: Result<Output, any Error>) {
        switch result {
        case .success(let output): finish(returning: output)
        case .failure(let error): finish(error: error)
        }
    }
}
