// Twins of the Swift samples in the doc comments of Sources/ConditionalOperationsTesting, verbatim
// (DocumentationSamplesTests checks it), each with the stubs it needs around it: keep them the same.
import ConditionalOperations
import ConditionalOperationsTesting
import Foundation
import Testing

private enum SessionError: Error {
    case expired
}

/// Finishes at once, after producing a `BlockOperation`.
private final class ProducingOperation: ConditionalOperation, @unchecked Sendable {
    override func execute() {
        produceOperation(BlockOperation {})
        finish()
    }
}

/// Runs until cancelled.
private final class Upload: ConditionalOperation, @unchecked Sendable {
    init(name: String) {
        super.init()
        self.name = name
    }

    override func execute() {}
}

/// Finishes at once.
private final class QuickOperation: ConditionalOperation, @unchecked Sendable {
    override func execute() { finish() }
}

// WaitTimeoutError.init(awaited:subject:timeout:diagnosis:)
private func makeError(upload: ConditionalOperation) throws {
    throw WaitTimeoutError(awaited: .finished, subject: "Upload", timeout: 5, diagnosis: upload.diagnosis)
}

// WaitTimeoutError.description
private func printError(_ error: WaitTimeoutError) {
    print(error)  // waited 5.0 s for Upload 'photos' to reach executing; it is Upload 'photos' (pending): …
}

extension ConditionalOperationsTests {
    @Suite struct SymbolSamplesTestingTests {
        // RecordingObserver
        @Test func aRecordingObserverLogsTheCallbacks() async throws {
            let operation = ProducingOperation()
            let queue = OperationQueue()
            let observer = RecordingObserver()
            operation.addObserver(observer)
            queue.addOperation(operation)
            try await operation.untilFinished(timeout: .seconds(5))
            #expect(observer.log == ["didStart", "didProduce(BlockOperation)", "didFinish(0)"])
            #expect(observer.callbacks == ["didStart", "didProduce", "didFinish"])
            #expect(observer.overlapCount == 0)
        }

        // RecordingObserver.log, .operationDidStart(_:), .operationDidCancel(_:errors:), …
        @Test func theLibraryCallsTheObserver() {
            let operation = QuickOperation()
            let observer = RecordingObserver()
            observer.operationDidStart(operation)  // what the library does
            observer.operation(operation, didProduce: BlockOperation {})  // what the library does
            observer.operationDidCancel(operation, errors: [])  // what the library does
            observer.operationDidFinish(operation, errors: operation.errors)  // what the library does
            #expect(
                observer.log == ["didStart", "didProduce(BlockOperation)", "didCancel(0)", "didFinish(0)"])
        }

        @Test func aCancelWithAnErrorIsLogged() {
            let operation = QuickOperation()
            let observer = RecordingObserver()
            observer.operationDidStart(operation)
            observer.operationDidCancel(operation, errors: [SessionError.expired])
            observer.operationDidFinish(operation, errors: [SessionError.expired])
            #expect(observer.log == ["didStart", "didCancel(1)", "didFinish(1)"])
        }

        // RecordingObserver.callbacks
        @Test func anOperationCancelledBeforeItStarts() async throws {
            let operation = QuickOperation()
            let observer = RecordingObserver()
            operation.addObserver(observer)
            operation.cancel()
            OperationQueue().addOperation(operation)
            try await operation.untilFinished(timeout: .seconds(5))
            #expect(observer.callbacks == ["didCancel", "didFinish"], "it never started")
        }

        // ManualCondition
        @Test func aManualConditionAnswersWhenTold() async throws {
            let upload = Upload(name: "photos")
            let queue = OperationQueue()
            let signedIn = ManualCondition(name: "signed in")
            upload.addCondition(signedIn)
            queue.addOperation(upload)
            try await signedIn.waitUntilEvaluated(timeout: .seconds(5))
            #expect(upload.state == .evaluatingConditions)
            signedIn.answer(.failed(SessionError.expired))
            try await upload.untilFinished(timeout: .seconds(5))
            #expect(upload.errors.count == 1)
        }

        // ManualCondition.name, .init(name:), .evaluationCount, .answer(_:), .waitUntilEvaluated(timeout:), .evaluate(for:completion:)
        @Test func aManualConditionIsAskedOnce() async throws {
            let operation = QuickOperation()
            let upload = operation
            let queue = OperationQueue()
            let condition = ManualCondition(name: "reachable")
            operation.addCondition(condition)
            queue.addOperation(operation)
            try await condition.waitUntilEvaluated(timeout: .seconds(5))
            #expect(operation.state == .evaluatingConditions)
            #expect(upload.diagnosis.description.contains("not answered: reachable"))
            condition.answer(.satisfied)
            condition.answer(.failed(CocoaError(.userCancelled)))  // for evaluations asked from now on
            try await operation.untilFinished(timeout: .seconds(5))
            #expect(operation.errors.isEmpty)
            #expect(condition.evaluationCount == 1, "asked once, not again after the dependency finished")
            condition.evaluate(for: operation) { result in print(result) }  // what the library does
            #expect(condition.evaluationCount == 2)
        }

        @Test func theDiagnosisNamesTheUnansweredCondition() async throws {
            let upload = Upload(name: "photos")
            let signedIn = ManualCondition(name: "signed in")
            upload.addCondition(signedIn)
            OperationQueue().addOperation(upload)
            try await signedIn.waitUntilEvaluated(timeout: .seconds(5))
            #expect(upload.diagnosis.description.contains("not answered: signed in"))
            signedIn.answer(.satisfied)
            try await upload.waitUntil(.executing, timeout: .seconds(5))
            upload.cancel()
            try await upload.untilFinished(timeout: .seconds(5))
        }

        // ConditionalOperation.waitUntilFinished(timeout:), .waitUntil(_:timeout:)
        @Test func waitingForAnOperation() async throws {
            let upload = QuickOperation()
            let download = Upload(name: "download")
            let queue = OperationQueue()
            queue.addOperation(upload)
            try await upload.untilFinished(timeout: .seconds(5))
            #expect(upload.errors.isEmpty)
            queue.addOperation(download)
            try await download.waitUntil(.executing, timeout: .seconds(5))
            download.cancel()
            try await download.untilFinished(timeout: .seconds(5))
        }

        // WaitTimeoutError
        @Test func aWaitThatDoesNotTimeOut() async throws {
            let upload = QuickOperation()
            OperationQueue().addOperation(upload)
            do {
                try await upload.untilFinished(timeout: .seconds(5))
            } catch let error as WaitTimeoutError {
                print(error)
                // waited 5.0 s for Upload 'photos' to finish; it is Upload 'photos' (evaluatingConditions):
                // evaluating conditions for 5.0 s; not answered: ManualCondition
            }
        }

        // WaitTimeoutError.Awaited's cases
        func theAwaitedEvents(upload: ConditionalOperation, signedIn: ManualCondition) async throws {
            try await upload.untilFinished(timeout: .seconds(5))  // throws .finished
            try await upload.waitUntil(.executing, timeout: .seconds(5))  // throws .state(.executing)
            try await signedIn.waitUntilEvaluated(timeout: .seconds(5))  // throws .evaluation
        }

        @Test func aWaitTimeoutErrorSays() throws {
            let upload = Upload(name: "photos")
            #expect(throws: WaitTimeoutError.self) { try makeError(upload: upload) }
            WaitTimeoutError.describeAwaited()
            let executing = WaitTimeoutError(
                awaited: .state(.executing), subject: "Upload 'photos'", timeout: 5,
                diagnosis: upload.diagnosis)
            do {
                let error = executing
                #expect(error.awaited == .state(.executing))
                printError(error)
                #expect(error.description.hasPrefix("waited 5.0 s for Upload 'photos' to reach executing"))
            }
            let error = WaitTimeoutError(
                awaited: .finished, subject: "Upload 'photos'", timeout: 5, diagnosis: upload.diagnosis)
            #expect(error.awaited == .finished)
            #expect(error.subject == "Upload 'photos'")
            #expect(error.timeout == 5)
            if case .conditions(let unanswered, _) = error.diagnosis?.reason { print(unanswered) }
        }
    }
}

extension WaitTimeoutError {
    // WaitTimeoutError.Awaited.description
    fileprivate static func describeAwaited() {
        #expect(Awaited.state(.executing).description == "reach executing")
    }
}
