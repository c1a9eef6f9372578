import ConditionalOperations
import Foundation
import Testing

extension ConditionalOperationsTests {
    /// The doc-comment samples of `waitUntilIdle()` and `shutdown(gracePeriod:)`, verbatim
    /// (checked by `DocumentationSamplesTests`).
    @Suite struct SymbolSamplesQueueLifeTests {
        @Test func waitingUntilIdle() async {
            let queue = ConditionalOperationQueue()
            let imports = (0..<10).map { _ in BlockOperation {} }
            queue.addOperations(imports, waitUntilFinished: false)
            await queue.waitUntilIdle()
            #expect(imports.allSatisfy { $0.isFinished })
        }

        @Test func shuttingDown() async {
            let queue = ConditionalOperationQueue()
            await queue.shutdown(gracePeriod: .seconds(10))
            #expect(queue.isShutDown)
        }
    }
}
