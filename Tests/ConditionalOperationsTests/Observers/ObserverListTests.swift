import Foundation
import Testing

@testable import ConditionalOperations

/// S1: observers are told in the order they were added, however the operation keeps them
/// (``ObserverList``: none, one, then several; a `BlockObserver` as it is, any other boxed).
@Suite struct ObserverListTests {
    /// An observer that is not a `BlockObserver`: kept boxed.
    struct NamedObserver: OperationObserver {
        let name: String
        let heard: Locked<[String]>
        func operationDidFinish(_ operation: ConditionalOperation, errors: [any Error]) {
            heard.withLock { $0.append(name) }
        }
    }

    @Test func S1_observersAreToldInTheOrderTheyWereAddedFromOneToSeveral() {
        let heard = Locked<[String]>([])
        var list = ObserverList()
        #expect(list.isEmpty && list.count == 0)
        list.append(KeptObserver(BlockObserver(didFinish: { _, _ in heard.withLock { $0.append("first") } })))
        #expect(list.count == 1)
        list.append(KeptObserver(NamedObserver(name: "second", heard: heard)))
        list.append(KeptObserver(BlockObserver(didFinish: { _, _ in heard.withLock { $0.append("third") } })))
        #expect(list.count == 3)
        let operation = ConditionalOperation()
        list.tell { $0.operationDidFinish(operation, errors: []) }
        #expect(heard.withLock { $0 } == ["first", "second", "third"])
        heard.withLock { $0 = [] }
        for observer in list.dropFirst(1) { observer.operationDidFinish(operation, errors: []) }
        #expect(heard.withLock { $0 } == ["second", "third"])
    }

    @Test func S1_aBlockObserverWithoutDidStartIsTheOnlyObserverThatDoesNotHearTheStart() {
        #expect(!KeptObserver(BlockObserver(didFinish: { _, _ in })).hearsStart)
        #expect(KeptObserver(BlockObserver(didStart: { _ in })).hearsStart)
        #expect(KeptObserver(NamedObserver(name: "boxed", heard: Locked([]))).hearsStart)
    }
}
