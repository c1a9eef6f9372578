import ConditionalOperationsTesting
import Dispatch
import Foundation

@testable import ConditionalOperations

/// Helpers of the misuse tests.
enum MisuseTable {
    /// The message of swift-corelibs-foundation's `fatalError` in `OperationQueue.addOperation`.
    static let foundationEnqueueTrap =
        "operations finished, executing or already in a queue cannot be enqueued"

    /// The exit code of a child process whose watchdog fired: it hung.
    static let hangExitCode: CInt = 42

    /// In an exit test's child process: exits with ``hangExitCode`` after `seconds`.
    static func watchdog(seconds: Double) {
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
            FileHandle.standardError.write(Data("watchdog: still running after \(seconds) s\n".utf8))
            exit(hangExitCode)
        }
    }

    /// In an exit test's child process: waits for a trap; exits with ``hangExitCode`` if none came.
    static func hang(seconds: Double) async {
        watchdog(seconds: seconds)
        _ = await Latch().wait(seconds: seconds * 2)
    }

    /// Polls `condition` for up to 5 s (in a child process, where no other event is at hand).
    static func waitUntil(_ condition: () -> Bool) async {
        for _ in 0..<500 where !condition() {
            _ = await Latch().wait(seconds: 0.01)
        }
    }

    /// Whether ThreadSanitizer instruments this process (it changes what a use of freed memory does).
    #if os(Linux)
        static let isThreadSanitized = dlsym(nil, "__tsan_init") != nil  // RTLD_DEFAULT is 0 on Linux
    #else
        static let isThreadSanitized = dlsym(UnsafeMutableRawPointer(bitPattern: -2), "__tsan_init") != nil
    #endif

    /// In an exit test's child process: a line on standard error, for the parent to check.
    static func say(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }

    static func text(_ bytes: [UInt8]?) -> String {
        String(decoding: bytes ?? [], as: UTF8.self)
    }

    struct Failure: Error, Equatable {
        let id: Int
        init(_ id: Int) { self.id = id }
    }

    /// Never calls its completion.
    struct SilentCondition: OperationCondition {
        func evaluate(
            for operation: ConditionalOperation,
            completion: @escaping @Sendable (OperationConditionResult) -> Void
        ) {}
    }

    /// Satisfied, 0.2 s after it was asked.
    struct LateCondition: OperationCondition {
        func evaluate(
            for operation: ConditionalOperation,
            completion: @escaping @Sendable (OperationConditionResult) -> Void
        ) {
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { completion(.satisfied) }
        }
    }

    /// A condition that keeps its completion and calls it on every `answer`, which a condition must
    /// not do (ConditionalOperationsTesting's `ManualCondition` answers each evaluation once): it
    /// checks that the operation counts only the first answer.
    final class RepeatingCondition: OperationCondition, Sendable {
        private let completion = Locked<(@Sendable (OperationConditionResult) -> Void)?>(nil)
        let evaluated = Latch()

        func evaluate(
            for operation: ConditionalOperation,
            completion: @escaping @Sendable (OperationConditionResult) -> Void
        ) {
            self.completion.withLock { $0 = completion }
            evaluated.countDown()
        }

        func answer(_ result: OperationConditionResult) {
            completion.withLock { $0 }?(result)
        }
    }

    /// Answers twice at once, from two threads: satisfied and failed.
    struct RacingCondition: OperationCondition {
        func evaluate(
            for operation: ConditionalOperation,
            completion: @escaping @Sendable (OperationConditionResult) -> Void
        ) {
            DispatchQueue.global().async { completion(.satisfied) }
            DispatchQueue.global().async { completion(.failed(Failure(1))) }
        }
    }

    /// Adds a new observer of its own kind in each callback, `generations` deep, and records
    /// every callback in `recorder`.
    struct SpawningObserver: OperationObserver {
        let recorder: RecordingObserver
        let generations: Int

        private func spawn(on operation: ConditionalOperation) {
            guard generations > 0 else { return }
            operation.addObserver(SpawningObserver(recorder: recorder, generations: generations - 1))
        }

        func operationDidStart(_ operation: ConditionalOperation) {
            recorder.operationDidStart(operation)
            spawn(on: operation)
        }

        func operationDidCancel(_ operation: ConditionalOperation, errors: [any Error]) {
            recorder.operationDidCancel(operation, errors: errors)
            spawn(on: operation)
        }

        func operationDidFinish(_ operation: ConditionalOperation, errors: [any Error]) {
            recorder.operationDidFinish(operation, errors: errors)
            spawn(on: operation)
        }
    }
}
