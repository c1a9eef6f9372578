import Foundation

/// Values checked where they are given (S34): a value that can only hang or mislead (a
/// concurrency limit of 0 starts nothing, a NaN interval times out at once as "nan s") stops the
/// program at the call that gave it, naming the value and the rule, as every misuse does (S13).
///
/// Each check returns the message, or `nil` for a good value, so that its table test needs no
/// child process; `require` stops with it.
enum ValueCheck {
    /// A concurrency limit: at least 1, or `OperationQueue.defaultMaxConcurrentOperationCount` for
    /// none. `setting` names the property as it was set, with its owner.
    static func concurrencyLimit(_ limit: Int, setting: String) -> String? {
        guard limit < 1, limit != OperationQueue.defaultMaxConcurrentOperationCount else { return nil }
        return "\(setting) = \(limit): a concurrency limit is at least 1, or "
            + "OperationQueue.defaultMaxConcurrentOperationCount for none; \(limit) would start nothing (S34)"
    }

    /// An interval in seconds: any number but NaN (zero or less means at once, where the
    /// documentation says so). `call` names the call that gave it.
    static func interval(_ seconds: TimeInterval, call: String) -> String? {
        guard seconds.isNaN else { return nil }
        return "\(call): an interval of nan seconds; give a number, or a Duration (S34)"
    }

    /// A factor (a back-off's multiplier or jitter): any number but NaN.
    static func factor(_ value: Double, named name: String, call: String) -> String? {
        guard value.isNaN else { return nil }
        return "\(call): \(name) is nan; give a number (S34)"
    }

    /// A number of attempts: at least 1.
    static func attempts(_ count: Int, call: String) -> String? {
        guard count < 1 else { return nil }
        return "\(call): maximumAttempts is \(count); a retry makes at least 1 attempt (S34)"
    }

    /// A maximum number of iterations: 0 or more.
    static func iterations(_ count: Int, call: String) -> String? {
        guard count < 0 else { return nil }
        return "\(call): maximumCount is \(count); a repeat makes 0 iterations or more (S34)"
    }

    /// Stops the program with `problem`, if there is one.
    static func require(_ problem: String?, file: StaticString = #fileID, line: UInt = #line) {
        if let problem { Misuse.trap(problem, file: file, line: line) }
    }
}
