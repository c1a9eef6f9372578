import Foundation

/// Operations first in, first out, letting go of each as it leaves; one that moved to another
/// line leaves a gap (`nil`), skipped. A line of the queue's machine (`+Slots`).
struct OperationLine {
    private var operations: [Foundation.Operation?] = []
    private var head = 0
    private var gaps = 0

    var isEmpty: Bool { head + gaps == operations.count }

    /// How many operations wait here.
    var count: Int { operations.count - head - gaps }

    mutating func append(_ operation: Foundation.Operation) {
        operations.append(operation)
    }

    mutating func popFirst() -> Foundation.Operation? {
        while head < operations.count {
            let first = operations[head]
            operations[head] = nil
            head += 1
            operations.dropConsumedPrefix(head: &head)
            guard let first else {
                gaps -= 1
                continue
            }
            return first
        }
        return nil
    }

    /// Takes `operation` out if it waits here; returns whether it did.
    mutating func remove(_ operation: Foundation.Operation) -> Bool {
        guard let index = operations[head...].firstIndex(where: { $0 === operation }) else {
            return false
        }
        operations[index] = nil
        gaps += 1
        return true
    }
}
