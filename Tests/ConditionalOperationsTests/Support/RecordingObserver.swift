import Foundation

@testable import ConditionalOperations

/// Records every callback as "didStart", "didProduce", "didCancel", "didFinish" and notes any
/// two callbacks that overlapped (S1).
final class RecordingObserver: OperationObserver {
    let recorder = Recorder()
    private let active = Locked(0)
    private let overlaps = Counter()

    var events: [String] { recorder.all }
    var overlapCount: Int { overlaps.current }

    private func enter(_ event: String) {
        if active.withLock({
            $0 += 1
            return $0
        }) > 1 {
            overlaps.increment()
        }
        recorder.record(event)
    }

    private func leave() {
        active.withLock { $0 -= 1 }
    }

    func operationDidStart(_ operation: ConditionalOperation) {
        enter("didStart")
        leave()
    }

    func operation(_ operation: ConditionalOperation, didProduce newOperation: Foundation.Operation) {
        enter("didProduce")
        leave()
    }

    func operationDidCancel(_ operation: ConditionalOperation, errors: [any Error]) {
        enter("didCancel")
        leave()
    }

    func operationDidFinish(_ operation: ConditionalOperation, errors: [any Error]) {
        enter("didFinish")
        leave()
    }
}
