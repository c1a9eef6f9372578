// The complete example of the DocC article TestingYourOperations.md, verbatim from here to the end
// of the file, so that it compiles and runs: keep the two the same.
import ConditionalOperations
import ConditionalOperationsTesting
import Foundation
import Testing

enum SignInError: Error {
    case refused
}

/// The operation under test; an application's would publish something.
final class PublishOperation: ConditionalOperation, @unchecked Sendable {
    override func execute() {
        DispatchQueue.global().async { self.finish() }
    }
}

@Suite struct PublishOperationTests {
    @Test func itWaitsForItsConditionThenRuns() async throws {
        let signedIn = ManualCondition(name: "signed in")
        let observer = RecordingObserver()
        let publish = PublishOperation()
        publish.addCondition(signedIn)
        publish.addObserver(observer)
        OperationQueue().addOperation(publish)

        try await signedIn.waitUntilEvaluated(timeout: .seconds(5))
        #expect(publish.state == .evaluatingConditions)
        #expect(observer.log.isEmpty)

        signedIn.answer(.satisfied)
        try await publish.untilFinished(timeout: .seconds(5))
        #expect(observer.log == ["didStart", "didFinish(0)"])
    }

    @Test func aRefusedConditionFinishesItWithoutRunning() async throws {
        let signedIn = ManualCondition(name: "signed in")
        signedIn.answer(.failed(SignInError.refused))  // kept until the operation asks
        let observer = RecordingObserver()
        let publish = PublishOperation()
        publish.addCondition(signedIn)
        publish.addObserver(observer)
        OperationQueue().addOperation(publish)

        try await publish.untilFinished(timeout: .seconds(5))
        #expect(observer.log == ["didFinish(1)"])
        #expect(publish.errors.first as? SignInError == .refused)
    }

    @Test func aCancelWhileItRunsStillEndsWithDidFinish() async throws {
        let observer = RecordingObserver()
        let publish = PublishOperation()
        publish.addObserver(observer)
        OperationQueue().addOperation(publish)

        try await publish.waitUntil(.executing, timeout: .seconds(5))
        publish.cancel()
        try await publish.untilFinished(timeout: .seconds(5))
        #expect(observer.callbacks.first == "didStart")
        #expect(observer.callbacks.last == "didFinish")
    }
}
