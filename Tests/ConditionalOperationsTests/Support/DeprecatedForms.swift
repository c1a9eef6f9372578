import Foundation

@testable import ConditionalOperations

/// The deprecated `TimeInterval` forms, reached through protocols: what they still check (S34: a
/// NaN stops) is tested without a deprecation warning in the build. The CI script checks that
/// each deprecated name compiles with its message.
protocol SecondsTimeout { init(timeout: TimeInterval) }
extension TimeoutObserver: SecondsTimeout {}

protocol SecondsDelay { init(interval: TimeInterval) }
extension DelayOperation: SecondsDelay {}

protocol SecondsDeadline { func addDeadline(after interval: TimeInterval) }
extension ConditionalOperation: SecondsDeadline {}

enum DeprecatedForms {
    static func timeoutObserver(seconds: TimeInterval) -> TimeoutObserver {
        make(TimeoutObserver.self, seconds)
    }

    static func delayOperation(seconds: TimeInterval) -> DelayOperation { make(DelayOperation.self, seconds) }

    static func addDeadline(to operation: some SecondsDeadline, seconds: TimeInterval) {
        operation.addDeadline(after: seconds)
    }

    private static func make<Made: SecondsTimeout>(_: Made.Type, _ seconds: TimeInterval) -> Made {
        Made(timeout: seconds)
    }

    private static func make<Made: SecondsDelay>(_: Made.Type, _ seconds: TimeInterval) -> Made {
        Made(interval: seconds)
    }
}
