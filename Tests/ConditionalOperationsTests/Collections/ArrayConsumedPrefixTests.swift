import ConditionalOperationsMachines
import Testing

extension ConditionalOperationsTests {
    /// The lines (exclusivity, rate limits, the scheduler) take from the front of an array and let
    /// go of what they took in bulk: never while little was taken, always once all of it was.
    @Suite struct ArrayConsumedPrefixTests {
        @Test(arguments: [
            // (count, head) → (count, head) after
            (10, 10, 0, 0),  // all taken: emptied
            (10, 3, 10, 3),  // a short array keeps its prefix
            (200, 65, 200, 65),  // a long one keeps it until it is more than half
            (200, 101, 99, 0),  // more than half, past 64: dropped
            (100, 60, 100, 60),  // more than half, but 64 or fewer: kept
        ])
        func aTakenPrefixIsDroppedOnceItIsAllOrMoreThanHalfOfALongLine(
            count: Int, head: Int, countAfter: Int, headAfter: Int
        ) {
            var line = Array(0..<count)
            var index = head
            line.dropConsumedPrefix(head: &index)
            #expect(line.count == countAfter)
            #expect(index == headAfter)
            if countAfter > 0 { #expect(line[index] == head) }  // the next element is still next
        }
    }
}
