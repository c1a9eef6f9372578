import ConditionalOperationsTesting
import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests {
    /// S34: a value that can only hang or mislead stops the program where it is given, with a
    /// message naming the value and the rule; the checks as a table, then each place that checks,
    /// in a child process.
    @Suite struct S34ValueCheckTests {
        @Test(arguments: [
            (0, true), (-2, true), (Int.min, true),
            (OperationQueue.defaultMaxConcurrentOperationCount, false),
            (1, false), (64, false),
        ])
        func S34_aConcurrencyLimitIsAtLeastOneOrNone(limit: Int, stops: Bool) {
            let message = ValueCheck.concurrencyLimit(limit, setting: "group.maxConcurrentChildren")
            #expect((message != nil) == stops)
            if let message {
                #expect(message.hasPrefix("group.maxConcurrentChildren = \(limit): "))
                #expect(message.hasSuffix("(S34)"))
            }
        }

        @Test(arguments: [
            (Double.nan, true), (-1, false), (0, false), (0.5, false), (Double.infinity, false),
        ])
        func S34_anIntervalIsAnyNumberButNaN(seconds: Double, stops: Bool) {
            let message = ValueCheck.interval(seconds, call: "TimeoutObserver(timeout: \(seconds))")
            #expect((message != nil) == stops)
            #expect(
                message.map { $0.contains("TimeoutObserver(timeout: nan)") && $0.contains("S34") } ?? true)
        }

        @Test func S34_attemptsAreAtLeastOneAndIterationsNotNegative() {
            #expect(
                ValueCheck.attempts(0, call: "RetryOperation(maximumAttempts: 0)")?.contains("is 0") == true)
            #expect(ValueCheck.attempts(1, call: "") == nil)
            #expect(
                ValueCheck.iterations(-1, call: "RepeatOperation(maximumCount: -1)")?.contains("is -1")
                    == true)
            #expect(ValueCheck.iterations(0, call: "") == nil)
            #expect(ValueCheck.factor(.nan, named: "jitter", call: "x")?.contains("jitter is nan") == true)
            #expect(ValueCheck.factor(2, named: "multiplier", call: "x") == nil)
        }

        @Test func S34_noLimitAndLimitsFromOneStillWork() async {
            let queue = ConditionalOperationQueue()
            queue.maxConcurrentOperationCount = OperationQueue.defaultMaxConcurrentOperationCount
            let group = GroupOperation(operations: [ClosureOperation<Void> { $0.finish() }])
            group.maxConcurrentChildren = 1
            group.maxConcurrentChildren = OperationQueue.defaultMaxConcurrentOperationCount
            queue.addOperation(group)
            #expect(await within { await group.untilFinished() } != nil)
            #expect(group.errors.isEmpty)
        }

        #if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))  // exit tests: 6.2; no iOS
            @Test func S34_aGroupOfNoChildAtATimeStops() async {
                let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                    let group = GroupOperation()
                    group.name = "Sync"
                    group.maxConcurrentChildren = 0
                }
                let message = MisuseTable.text(result?.standardErrorContent)
                #expect(message.contains("GroupOperation 'Sync'.maxConcurrentChildren = 0"))
                #expect(message.contains("S34"))
            }

            @Test func S34_aQueueOfNoOperationAtATimeStops() async {
                let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                    let queue = ConditionalOperationQueue()
                    queue.name = "uploads"
                    queue.maxConcurrentOperationCount = 0
                }
                let message = MisuseTable.text(result?.standardErrorContent)
                #expect(message.contains("maxConcurrentOperationCount = 0"))
                #expect(message.contains("uploads"))
                #expect(message.contains("S34"))
            }

            @Test func S34_aTimeoutOfNaNStops() async {
                let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                    _ = DeprecatedForms.timeoutObserver(seconds: .nan)
                }
                let message = MisuseTable.text(result?.standardErrorContent)
                #expect(message.contains("TimeoutObserver(timeout: nan)"))
            }

            @Test func S34_aDeadlineOfNaNStops() async {
                let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                    let operation = ConditionalOperation()
                    operation.name = "Upload"
                    DeprecatedForms.addDeadline(to: operation, seconds: .nan)
                }
                let message = MisuseTable.text(result?.standardErrorContent)
                #expect(message.contains("ConditionalOperation 'Upload'.addDeadline(after: nan)"))
                #expect(message.contains("S34"))
            }

            @Test func S34_aDelayOfNaNStops() async {
                let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                    _ = DeprecatedForms.delayOperation(seconds: .nan)
                }
                let message = MisuseTable.text(result?.standardErrorContent)
                #expect(message.contains("DelayOperation(interval: nan)"))
            }

            @Test func S34_aBackOffOfNaNStops() async {
                let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                    _ = RetryBackoff.exponential(initial: .seconds(1), multiplier: .nan)
                }
                let message = MisuseTable.text(result?.standardErrorContent)
                #expect(message.contains("multiplier is nan"))
            }

            @Test func S34_aRetryOfNoAttemptStops() async {
                let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                    _ = RetryOperation<Int>(maximumAttempts: 0) { _ in ClosureOperation<Int> { $0.finish() } }
                }
                let message = MisuseTable.text(result?.standardErrorContent)
                #expect(message.contains("RetryOperation(maximumAttempts: 0)"))
                #expect(message.contains("S34"))
            }

            @Test func S34_aRepeatOfANegativeCountStops() async {
                let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                    _ = RepeatOperation<Int>(maximumCount: -1) { _ in nil }
                }
                let message = MisuseTable.text(result?.standardErrorContent)
                #expect(message.contains("RepeatOperation(maximumCount: -1)"))
            }
        #endif
    }
}
