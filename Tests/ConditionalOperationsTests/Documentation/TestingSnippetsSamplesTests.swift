import ConditionalOperations
import ConditionalOperationsTesting
import Foundation
import Testing

extension ConditionalOperationsTests {
    /// The short samples of the DocC article `TestingYourOperations.md` and of the
    /// `ConditionalOperationsTesting` catalog's landing page, verbatim, run (checked by
    /// `DocumentationSamplesTests`; the article's complete example is `TestingSamplesTests.swift`).
    @Suite struct TestingSnippetsSamplesTests {
        /// Produces a thumbnail, then waits to be cancelled.
        final class ThumbnailOperation: ConditionalOperation, @unchecked Sendable {
            let produced = Latch()

            override func execute() {
                let thumbnail = ClosureOperation<Void>(name: "thumbnail") { $0.finish() }
                produceOperation(thumbnail)
                produced.countDown()
            }
        }

        @Test func aManualConditionHoldsTheOperationUntilAnswered() async throws {
            let publish = PublishOperation()
            let queue = OperationQueue()
            let signedIn = ManualCondition(name: "signed in")
            publish.addCondition(signedIn)
            queue.addOperation(publish)
            try await signedIn.waitUntilEvaluated(timeout: .seconds(5))
            #expect(publish.state == .evaluatingConditions)
            signedIn.answer(.failed(SignInError.refused))

            try await publish.untilFinished(timeout: .seconds(5))
            #expect(publish.errors.first as? SignInError == .refused)
        }

        @Test func waitsWithATimeBound() async throws {
            let publish = PublishOperation()
            OperationQueue().addOperation(publish)
            try await publish.untilFinished(timeout: .seconds(5))  // finished, observers returned
            try await publish.waitUntil(.executing, timeout: .seconds(5))  // executing, or later
            #expect(publish.isFinished)
        }

        @Test func aRecordingObserverLogsEachCallback() async throws {
            let operation = ThumbnailOperation()
            let observer = RecordingObserver()
            operation.addObserver(observer)
            // … run it …
            ConditionalOperationQueue().addOperation(operation)
            #expect(await operation.produced.wait())
            operation.cancel(with: SignInError.refused)
            try await operation.untilFinished(timeout: .seconds(5))
            #expect(observer.log == ["didStart", "didProduce(thumbnail)", "didCancel(1)", "didFinish(1)"])
            #expect(observer.callbacks == ["didStart", "didProduce", "didCancel", "didFinish"])
        }

        /// The catalog's sample (`ConditionalOperationsTesting.md`).
        @Test func theCatalogSample() async throws {
            let publish = PublishOperation()
            let signedIn = ManualCondition(name: "signed in")
            let observer = RecordingObserver()
            publish.addCondition(signedIn)
            publish.addObserver(observer)
            OperationQueue().addOperation(publish)

            try await signedIn.waitUntilEvaluated(timeout: .seconds(5))
            signedIn.answer(.satisfied)
            try await publish.untilFinished(timeout: .seconds(5))
            #expect(observer.log == ["didStart", "didFinish(0)"])
        }
    }
}
