import Foundation

/// The errors the library itself produces, as they reach ``ConditionalOperation/errors`` and observers.
public enum OperationError: Error, Sendable {
    /// A condition failed without an error of its own: a ``BlockCondition`` returning `false`,
    /// or a ``NegatedCondition`` whose base condition was satisfied.
    case conditionFailed(name: String)
    /// A ``TimeoutObserver`` cancelled the operation after this many seconds.
    case timedOut(TimeInterval)
    /// These dependencies finished with errors, or a producer finished without a value
    /// (``NoFailedDependencies``, ``ConditionalOperation/inject(from:_:)``). Each one is listed
    /// once, with its own errors.
    case dependenciesFailed([FailedDependency])
    /// These dependencies were cancelled (``NoFailedDependencies``,
    /// ``ConditionalOperation/inject(from:_:)``). Each one is listed once, with its own errors
    /// (the errors it was cancelled with).
    case dependenciesCancelled([FailedDependency])
    /// The operation is part of a dependency cycle and could never start.
    case dependencyCycle
    /// A ``ResultOperation`` awaited for its ``ResultOperation/value`` finished without errors
    /// and without a value (a plain `finish()`; not one whose `Output` is `Void`, which returns
    /// `()`, S23); `name` names it.
    case finishedWithoutValue(name: String)
    /// Its ``ConditionalOperationQueue`` was shut down (S21): added after
    /// ``ConditionalOperationQueue/shutdown(gracePeriod:)`` was called, or unfinished when the
    /// grace period ended.
    case queueShutDown
}

extension OperationError {
    /// A dependency that kept an operation from executing, and the errors it finished with.
    ///
    /// ```swift
    /// do {
    ///     _ = try save.result?.get()  // save injects from parse, which failed
    /// } catch let error as OperationError {
    ///     for dependency in error.failedDependencies {
    ///         log("\(dependency.name): \(dependency.errors)")  // "parse: [ParseError.badHeader]"
    ///     }
    /// }
    /// ```
    ///
    /// Two values are equal when their ``name``, ``isCancelled``, ``isSkipped`` and ``errors`` are: errors are
    /// compared by their `String(reflecting:)` text, one by one, in order (an `any Error` has no
    /// `==` of its own). Which operation it was is not compared.
    public struct FailedDependency: Sendable, Equatable, CustomStringConvertible {
        /// The dependency's `name` if it has a non-empty one, otherwise its type's name
        /// (`"FetchUsers"`, `"ResultOperation<Int>"`).
        public let name: String
        /// The dependency's own ``ConditionalOperation/errors`` when it was evaluated: why it failed,
        /// or the errors it was cancelled with. Empty for a plain `Foundation.Operation`, a
        /// dependency cancelled without an error, and a producer that finished without a value.
        public let errors: [any Error]
        /// `true` if the dependency was cancelled (it is then listed by
        /// ``OperationError/dependenciesCancelled(_:)``); `false` for one that timed out
        /// (``OperationError/timedOut(_:)`` among its errors), which failed (S9).
        public let isCancelled: Bool
        /// `true` if a condition skipped the dependency (S17): it finished without a value, which
        /// only a dependent that needs its output (``ConditionalOperation/inject(from:_:)``)
        /// reports.
        public let isSkipped: Bool
        /// The dependency itself, to list it once when several conditions report it; not compared.
        let id: ObjectIdentifier

        init(
            name: String, errors: [any Error], isCancelled: Bool, isSkipped: Bool = false,
            id: ObjectIdentifier
        ) {
            self.name = name
            self.errors = errors
            self.isCancelled = isCancelled
            self.isSkipped = isSkipped
            self.id = id
        }

        /// `dependency 'login' failed: login rejected`, `dependency 'login' was cancelled`; several
        /// errors are joined with `"; "`.
        public var description: String {
            let what =
                "dependency '\(name)' \(isCancelled ? "was cancelled" : isSkipped ? "was skipped" : "failed")"
            guard !errors.isEmpty else { return what }
            return "\(what): \(errors.map { String(describing: $0) }.joined(separator: "; "))"
        }

        /// Equal names, cancellation and errors; errors are compared by `String(reflecting:)`.
        public static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.name == rhs.name && lhs.isCancelled == rhs.isCancelled && lhs.isSkipped == rhs.isSkipped
                && lhs.errors.map { String(reflecting: $0) } == rhs.errors.map { String(reflecting: $0) }
        }
    }

    /// The dependencies of ``dependenciesFailed(_:)`` or ``dependenciesCancelled(_:)``; empty for
    /// every other case.
    ///
    /// Their ``FailedDependency/errors`` are the root cause of the failure:
    /// `catch let error as OperationError` reaches them without a `switch`.
    public var failedDependencies: [FailedDependency] {
        switch self {
        case .dependenciesFailed(let dependencies), .dependenciesCancelled(let dependencies): dependencies
        case .conditionFailed, .timedOut, .dependencyCycle, .finishedWithoutValue, .queueShutDown: []
        }
    }

    /// The errors of ``failedDependencies``, in order, with every ``dependenciesFailed(_:)`` or
    /// ``dependenciesCancelled(_:)`` among them replaced by its own underlying errors: for a chain
    /// of operations gated by ``NoFailedDependencies``, the errors of the operation that failed
    /// first. Empty for every other case.
    public var underlyingErrors: [any Error] {
        failedDependencies.flatMap { dependency in
            dependency.errors.flatMap { error -> [any Error] in
                guard let nested = error as? OperationError, !nested.failedDependencies.isEmpty else {
                    return [error]
                }
                return nested.underlyingErrors
            }
        }
    }
}

extension OperationError.FailedDependency {
    /// Describes `operation` as it is now: its name, its errors and whether it was cancelled, so
    /// that a condition of your own can report ``OperationError/dependenciesFailed(_:)`` or
    /// ``OperationError/dependenciesCancelled(_:)`` as `NoFailedDependencies` does.
    ///
    /// ```swift
    /// let cancelled = operation.dependencies.filter(\.isCancelled)
    /// completion(
    ///     .failed(OperationError.dependenciesCancelled(cancelled.map(OperationError.FailedDependency.init)))
    /// )
    /// ```
    public init(_ operation: Foundation.Operation) {
        let name = operation.name ?? ""
        self.init(
            name: name.isEmpty ? String(describing: type(of: operation)) : name,
            errors: (operation as? ConditionalOperation)?.errors ?? [],
            isCancelled: operation.countsAsCancelled,
            isSkipped: (operation as? ConditionalOperation)?.isSkipped ?? false,
            id: ObjectIdentifier(operation))
    }
}

extension OperationError: CustomStringConvertible {
    /// A sentence for logs: `1 dependency failed: dependency 'login' failed: login rejected`.
    public var description: String {
        switch self {
        case .conditionFailed(let name): "condition '\(name)' failed"
        case .timedOut(let seconds): "timed out after \(seconds) s"
        case .dependenciesFailed(let dependencies):
            Self.describe(dependencies, "\(dependencies.count == 1 ? "dependency" : "dependencies") failed")
        case .dependenciesCancelled(let dependencies):
            Self.describe(
                dependencies, "\(dependencies.count == 1 ? "dependency was" : "dependencies were") cancelled")
        case .dependencyCycle: "the operation is part of a dependency cycle"
        case .finishedWithoutValue(let name): "\(name) finished without a value"
        case .queueShutDown: "its queue was shut down"
        }
    }

    private static func describe(_ dependencies: [FailedDependency], _ summary: String) -> String {
        let count = "\(dependencies.count) \(summary)"
        guard !dependencies.isEmpty else { return count }
        return "\(count): \(dependencies.map(\.description).joined(separator: "; "))"
    }
}

extension OperationError: Equatable {}

extension OperationError {
    /// Whether `error` is ``dependencyCycle``: the mark of an operation its queue found in a cycle.
    static func isDependencyCycle(_ error: any Error) -> Bool {
        (error as? OperationError) == .dependencyCycle
    }
}

extension Foundation.Operation {
    /// Cancelled, and not by a timeout: an operation cancelled with ``OperationError/timedOut(_:)``
    /// failed to do its work in time, so its dependents count it as failed, not cancelled (S9).
    var countsAsCancelled: Bool {
        guard isCancelled else { return false }
        guard let conditional = self as? ConditionalOperation else { return true }
        return !conditional.errors.contains { error in
            if case .timedOut = error as? OperationError { return true }
            return false
        }
    }
}
