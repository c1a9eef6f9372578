// Twins of the Swift samples in the doc comments of Sources/ConditionalOperations/Queue, verbatim
// (DocumentationSamplesTests checks it), each with the stubs it needs around it: keep them the same.
import ConditionalOperations
import Foundation
import Testing

// MainActorQueueDelegate
private enum MainActorQueueDelegateSample {
    @MainActor final class Jobs {
        let queue = ConditionalOperationQueue()
        var running = 0
        private var delegate: MainActorQueueDelegate?

        init() {
            delegate = MainActorQueueDelegate(
                didAdd: { [weak self] _, _ in self?.running += 1 },
                didFinish: { [weak self] _, _, _ in self?.running -= 1 })
            queue.delegate = delegate
        }
    }
}

extension ConditionalOperationsTests {
    @Suite struct SymbolSamplesQueueTests {
        @Test @MainActor func aMainActorQueueDelegate() {
            let jobs = MainActorQueueDelegateSample.Jobs()
            #expect(jobs.queue.delegate != nil)
            #expect(jobs.running == 0)
        }
    }
}
