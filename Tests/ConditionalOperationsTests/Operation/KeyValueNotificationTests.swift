import ConditionalOperationsTesting
import Foundation
import Testing

@testable import ConditionalOperations

extension ConditionalOperationsTests {
    /// KVO as Apple delivers it: `willChangeValue(forKey:)` before the value changes and
    /// `didChangeValue(forKey:)` after, for `isReady`, `isExecuting` and `isFinished` alike. The
    /// notifications go through one pair of methods on every platform; this suite reads the value
    /// at each, where a `.prior` observer reads the old value and a `.new` observer the new one.
    @Suite struct KeyValueNotificationTests {
        /// Records, at each notification, the property and the value it answers then.
        final class RecordingOperation: ConditionalOperation, @unchecked Sendable {  // state: Recorder
            let notifications = Recorder()

            override func willChange(_ property: ObservedProperty) {
                notifications.record("will \(property.rawValue) \(value(of: property))")
                super.willChange(property)
            }

            override func didChange(_ property: ObservedProperty) {
                super.didChange(property)
                notifications.record("did \(property.rawValue) \(value(of: property))")
            }

            private func value(of property: ObservedProperty) -> Bool {
                switch property {
                case .isReady: isReady
                case .isExecuting: isExecuting
                case .isFinished: isFinished
                case .isCancelled: isCancelled
                }
            }

            func recorded(_ property: ObservedProperty) -> [String] {
                notifications.all.filter { $0.contains(" \(property.rawValue) ") }
            }
        }

        /// Each pair of notifications: the old value at `will`, the new one at `did` (a repeated
        /// announcement, whose value does not change, reads the same at both).
        static func expectPairs(_ recorded: [String], from old: Bool, to new: Bool) {
            #expect(recorded.count >= 2 && recorded.count.isMultiple(of: 2), "\(recorded)")
            guard recorded.count >= 2 else { return }
            let property = recorded[0].split(separator: " ")[1]
            #expect(recorded[0] == "will \(property) \(old)", "\(recorded)")
            #expect(recorded[1] == "did \(property) \(new)", "\(recorded)")
        }

        /// A re-announcement of `isReady` (a plain queue may have stored a stale answer) can still
        /// be under way on another thread when the operation finished: its `didChange` comes a
        /// moment later, so the count is read once every `willChange` has its `didChange`.
        static func waitForTheLastDidChange(_ operation: RecordingOperation, _ property: ObservedProperty)
            async
        {
            await waitUntil { operation.recorded(property).count.isMultiple(of: 2) }
        }

        @Test func isReadyChangesBetweenWillAndDidWhenTheConditionsAnswer() async throws {
            let queue = OperationQueue()
            let condition = ManualCondition()
            let operation = RecordingOperation()
            operation.addCondition(condition)
            queue.addOperation(operation)
            try await condition.waitUntilEvaluated(timeout: .seconds(10))
            condition.answer(.satisfied)
            try await operation.untilFinished(timeout: .seconds(10))
            await Self.waitForTheLastDidChange(operation, .isReady)
            Self.expectPairs(operation.recorded(.isReady), from: false, to: true)
        }

        @Test func isReadyChangesBetweenWillAndDidWhenAWaitingOperationIsCancelled() async throws {
            let queue = OperationQueue()
            let operation = RecordingOperation()
            operation.addCondition(ManualCondition())
            queue.addOperation(operation)
            operation.cancel()
            try await operation.untilFinished(timeout: .seconds(10))
            await Self.waitForTheLastDidChange(operation, .isReady)
            Self.expectPairs(operation.recorded(.isReady), from: false, to: true)
        }

        /// With an observer of its start (always on Apple platforms, where `isExecuting` is posted),
        /// the start is announced before observers hear `operationDidStart`.
        @Test func isExecutingChangesBetweenWillAndDidWhenItStartsAndWhenItFinishes() async throws {
            let started = Recorder()
            let operation = RecordingOperation()
            operation.addObserver(
                BlockObserver(didStart: { operation in started.record("didStart \(operation.isExecuting)") }))
            OperationQueue().addOperation(operation)
            try await operation.untilFinished(timeout: .seconds(10))
            // The wait ends with the `events` stream, in the trip that finishes the operation: the
            // `didChange` notifications come right after it, unlocked.
            await waitUntil { operation.recorded(.isExecuting).count == 4 }
            #expect(
                operation.recorded(.isExecuting) == [
                    "will isExecuting false", "did isExecuting true",
                    "will isExecuting true", "did isExecuting false",
                ])
            #expect(started.all == ["didStart true"])
        }

        @Test func isFinishedChangesBetweenWillAndDid() async throws {
            let operation = RecordingOperation()
            OperationQueue().addOperation(operation)
            try await operation.untilFinished(timeout: .seconds(10))
            await waitUntil { operation.recorded(.isFinished).count == 2 }  // see above
            #expect(operation.recorded(.isFinished) == ["will isFinished false", "did isFinished true"])
        }

        /// S4: `isCancelled` reads `false` at `willChangeValue` and `true` at `didChangeValue`;
        /// a second cancel changes nothing and tells nothing. Posted where Foundation listens
        /// (Apple platforms, and `-DAPPLE_FOUNDATION_PATHS` builds on Linux).
        @Test(.enabled(if: ObservedProperty.isCancelled.isPosted))
        func isCancelledChangesBetweenWillAndDid() async throws {
            let operation = RecordingOperation()
            operation.addCondition(ManualCondition())
            OperationQueue().addOperation(operation)
            operation.cancel()
            operation.cancel()
            try await operation.untilFinished(timeout: .seconds(10))
            #expect(operation.recorded(.isCancelled) == ["will isCancelled false", "did isCancelled true"])
        }

        /// S27: a joiner cancelled through the operation it joined is told as a cancel of its own.
        @Test(.enabled(if: ObservedProperty.isCancelled.isPosted))
        func aJoinerCancelledThroughTheOperationItJoinedChangesBetweenWillAndDid() async throws {
            let queue = ConditionalOperationQueue()
            let joined = RecordingOperation()
            joined.coalescingKey = "kvo"
            joined.addCondition(ManualCondition())
            let joiner = RecordingOperation()
            joiner.coalescingKey = "kvo"
            queue.add([joined, joiner])
            joined.cancel()
            try await joiner.untilFinished(timeout: .seconds(10))
            #expect(joiner.isCancelled)
            #expect(joiner.recorded(.isCancelled) == ["will isCancelled false", "did isCancelled true"])
        }
    }
}
