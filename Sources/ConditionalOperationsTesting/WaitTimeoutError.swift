import ConditionalOperations
import Foundation

/// A wait of this module ran out of time: it says what it waited for and, for an operation, why
/// that operation was still waiting, so that a failing test explains itself.
///
/// ```swift
/// do {
///     try await upload.untilFinished(timeout: .seconds(5))
/// } catch let error as WaitTimeoutError {
///     print(error)
///     // waited 5.0 s for Upload 'photos' to finish; it is Upload 'photos' (evaluatingConditions):
///     // evaluating conditions for 5.0 s; not answered: ManualCondition
/// }
/// ```
///
/// Swift Testing and XCTest both print the description of an error a test throws.
public struct WaitTimeoutError: Error, Sendable, CustomStringConvertible {
    /// What a wait was for.
    ///
    /// ```swift
    /// #expect(error.awaited == .state(.executing))
    /// ```
    public enum Awaited: Sendable, Equatable, CustomStringConvertible {
        /// `ConditionalOperation.untilFinished(timeout:)`.
        ///
        /// ```swift
        /// try await upload.untilFinished(timeout: .seconds(5))  // throws .finished
        /// ```
        case finished
        /// `ConditionalOperation.waitUntil(_:timeout:)`: the state, or a later one.
        ///
        /// ```swift
        /// try await upload.waitUntil(.executing, timeout: .seconds(5))  // throws .state(.executing)
        /// ```
        case state(ConditionalOperation.State)
        /// ``ManualCondition/waitUntilEvaluated(timeout:)-(Duration)``: the condition to be asked to evaluate.
        ///
        /// ```swift
        /// try await signedIn.waitUntilEvaluated(timeout: .seconds(5))  // throws .evaluation
        /// ```
        case evaluation

        /// The end of the sentence "waited 5.0 s for … to …".
        ///
        /// ```swift
        /// #expect(Awaited.state(.executing).description == "reach executing")
        /// ```
        public var description: String {
            switch self {
            case .finished: "finish"
            case .state(let state): "reach \(state)"
            case .evaluation: "be asked to evaluate"
            }
        }
    }

    /// What the wait was for.
    ///
    /// ```swift
    /// #expect(error.awaited == .finished)
    /// ```
    public let awaited: Awaited

    /// Who it waited for: an operation's type and name (`Upload 'photos'`), or a condition's name.
    ///
    /// ```swift
    /// #expect(error.subject == "Upload 'photos'")
    /// ```
    public let subject: String

    /// The bound that passed, in seconds.
    ///
    /// ```swift
    /// #expect(error.timeout == 5)
    /// ```
    public let timeout: TimeInterval

    /// Why the operation was still waiting when the time ran out (`nil` for a condition nobody
    /// asked, which belongs to no operation yet).
    ///
    /// ```swift
    /// if case .conditions(let unanswered, _) = error.diagnosis?.reason { print(unanswered) }
    /// ```
    public let diagnosis: OperationDiagnosis?

    /// Makes the error a wait throws; public so that helpers built on this module can throw it too.
    ///
    /// ```swift
    /// throw WaitTimeoutError(awaited: .finished, subject: "Upload", timeout: 5, diagnosis: upload.diagnosis)
    /// ```
    public init(awaited: Awaited, subject: String, timeout: TimeInterval, diagnosis: OperationDiagnosis?) {
        self.awaited = awaited
        self.subject = subject
        self.timeout = timeout
        self.diagnosis = diagnosis
    }

    /// One line: what it waited for, how long, and the diagnosis.
    ///
    /// ```swift
    /// print(error)  // waited 5.0 s for Upload 'photos' to reach executing; it is Upload 'photos' (pending): …
    /// ```
    public var description: String {
        let waited = "waited \(timeout) s for \(subject) to \(awaited)"
        if let diagnosis { return "\(waited); it is \(diagnosis)" }
        // Only a condition has no diagnosis: nobody asked it, so the hint is where to look instead.
        return "\(waited): no operation reached evaluatingConditions with it (is the operation added to "
            + "a queue or started, and have its dependencies finished?)"
    }
}
