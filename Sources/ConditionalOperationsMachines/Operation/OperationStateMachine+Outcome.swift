import Foundation

/// The outcome: the operation's errors, whether a cancel took effect, and the errors of
/// `cancel(with:)` waiting for one. The `cancel` event itself is in `+Cancellation`.
extension OperationStateMachine {
    /// Whether a cancel took effect.
    public enum Cancellation: UInt8, Sendable {
        case none
        /// Not yet, but `cancel(with:)` was called, and the override of `cancel()` did not call
        /// `super` on its thread (``offerCancelError(_:)``): ``errors`` holds those errors as
        /// ``OfferedCancelError``s, which count once a cancel takes effect, and are dropped if
        /// the operation finishes first. Kept in ``errors``: a field of their own would cost every
        /// operation a word for what only such an override needs.
        case offered
        case cancelled
    }

    /// An error of `cancel(with:)` waiting for the cancel to take effect (``Cancellation/offered``).
    public struct OfferedCancelError: Error, Sendable {
        @usableFromInline let error: any Error

        @inlinable init(error: any Error) {
            self.error = error
        }
    }

    /// What the operation finishes with: its errors, and whether a cancel took effect. Its own
    /// methods are its only writers, so that an offered cancel error never outlives its offer.
    public struct Outcome: Sendable {
        @usableFromInline var errors: [any Error]
        @usableFromInline var cancellation: Cancellation

        @inlinable init() {
            self.errors = []
            self.cancellation = Cancellation.none
        }

        @inlinable mutating func record(_ error: any Error) {
            errors.append(error)
        }

        @inlinable mutating func record(contentsOf new: [any Error]) {
            errors.append(sharing: new)
        }

        /// A failed condition's error, merged with those of the same dependencies
        /// (`ConditionFailures.swift`).
        @inlinable mutating func recordConditionFailure(_ error: any Error) {
            Host.appendConditionFailure(error, to: &errors)
        }

        /// See ``OperationStateMachine/markCancelled(adding:)``.
        @inlinable mutating func markCancelled(adding error: (any Error)?) {
            if cancellation == .offered { errors = errors.map { ($0 as? OfferedCancelError)?.error ?? $0 } }
            if let error { errors.append(error) }
            cancellation = .cancelled
        }

        /// See ``OperationStateMachine/dropOfferedCancelErrors()``.
        @inlinable mutating func dropOfferedCancelErrors() {
            guard cancellation == .offered else { return }
            errors.removeAll { $0 is OfferedCancelError }
            cancellation = .none
        }

        /// `error` counts at once if a cancel took effect, else once one does.
        @inlinable mutating func offer(_ error: any Error) {
            if cancellation == .cancelled {
                errors.append(error)  // `super.cancel()` ran on another thread already: it counts (S4)
            } else {
                errors.append(OfferedCancelError(error: error))
                cancellation = .offered
            }
        }
    }

    @inlinable public var errors: [any Error] { outcome.errors }
    @inlinable public var cancellation: Cancellation { outcome.cancellation }
    @inlinable public var isCancelled: Bool { cancellation == .cancelled }

    /// ``errors`` as the operation reports them: without the errors offered to a cancel that
    /// has not taken effect.
    @inlinable public var reportedErrors: [any Error] {
        cancellation == .offered ? errors.filter { !($0 is OfferedCancelError) } : errors
    }

    /// The cancel takes effect: the errors offered for it count, and `error` is recorded, before
    /// `operationDidCancel` is queued with them.
    @inlinable mutating func markCancelled(adding error: (any Error)?) {
        outcome.markCancelled(adding: error)
    }

    /// Finishing began without a cancel: the errors offered to one never count.
    @inlinable mutating func dropOfferedCancelErrors() {
        outcome.dropOfferedCancelErrors()
    }

    /// The `cancel()` that a `cancel(with:)` called returned without the base `cancel()` taking
    /// its error on that thread: an override calls `super` later, on another thread, or not at
    /// all. The error counts if the cancel does: at once if it took effect already (before
    /// finishing), else with the cancel that takes effect later; a finish first drops it.
    @inlinable public mutating func offerCancelError(_ error: any Error) {
        guard state < .finishing else { return }  // the finish won, or the cancel ended it already
        outcome.offer(error)
    }
}
