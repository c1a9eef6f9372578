// Twins of the Swift samples in the doc comments of Sources/ConditionalOperations/Operation,
// verbatim (DocumentationSamplesTests checks it), each with the stubs it needs around it: keep them
// the same.
import ConditionalOperations
import ConditionalOperationsTesting
import Foundation
import Testing

private enum ParseError: Error {
    case badHeader
}

private func download(_ completion: @escaping @Sendable ((any Error)?) -> Void) {
    DispatchQueue.global().async { completion(nil) }
}

private let logged = LogLines()

/// What `log` wrote.
private final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}

private func log(_ line: String) { logged.append(line) }

// ConditionalOperation
private enum ConditionalOperationSample {
    final class FetchOperation: ConditionalOperation, @unchecked Sendable {
        override func execute() {
            download { error in self.finish(error: error) }
        }
    }
}

private final class Parse: ResultOperation<String>, @unchecked Sendable {
    override func execute() { finish(with: .failure(ParseError.badHeader)) }
}

private final class Save: ResultOperation<Int>, @unchecked Sendable {
    override func execute() { finish(with: .success(1)) }
}

// OperationError.FailedDependency
private func failedDependencies(save: Save) throws {
    do {
        _ = try save.result?.get()  // save injects from parse, which failed
    } catch let error as OperationError {
        for dependency in error.failedDependencies {
            log("\(dependency.name): \(dependency.errors)")  // "parse: [ParseError.badHeader]"
        }
    }
}

/// Fails if a dependency was cancelled.
private struct NoCancelledDependencies: OperationCondition {
    func evaluate(
        for operation: ConditionalOperation,
        completion: @escaping @Sendable (OperationConditionResult) -> Void
    ) {
        // OperationError.FailedDependency.init(_:)
        let cancelled = operation.dependencies.filter(\.isCancelled)
        completion(
            .failed(OperationError.dependenciesCancelled(cancelled.map(OperationError.FailedDependency.init)))
        )
    }
}

extension ConditionalOperationsTests {
    @Suite struct SymbolSamplesOperationTests {
        @Test func aConditionalOperation() async throws {
            let fetch = ConditionalOperationSample.FetchOperation()
            OperationQueue().addOperation(fetch)
            try await fetch.untilFinished(timeout: .seconds(5))
            #expect(fetch.errors.isEmpty)
        }

        @Test func theFailedDependencies() async throws {
            let parse = Parse()
            parse.name = "parse"
            let save = Save()
            save.inject(from: parse) { _, _ in }
            let queue = OperationQueue()
            queue.addOperation(parse)
            queue.addOperation(save)
            try await save.untilFinished(timeout: .seconds(5))
            try failedDependencies(save: save)
            #expect(logged.all.count == 1)
            #expect(logged.all.first?.hasPrefix("parse: [") == true)
            #expect(logged.all.first?.hasSuffix("ParseError.badHeader]") == true)
        }

        @Test func aCancelledDependency() async throws {
            let dependency = Save()
            dependency.cancel()
            let operation = Save()
            operation.addDependency(dependency)
            operation.addCondition(NoCancelledDependencies())
            let queue = OperationQueue()
            queue.addOperation(dependency)
            queue.addOperation(operation)
            try await operation.untilFinished(timeout: .seconds(5))
            #expect(operation.errors.first is OperationError)
        }
    }
}
