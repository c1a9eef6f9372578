extension Array {
    /// Lets go of the prefix before `head`, the elements already taken from the front, once it is
    /// the whole array or more than half of a long one, and moves `head` back to 0: taking from
    /// the front of a line then costs O(1) amortised, without a ring buffer. Inlinable: the
    /// queue's scheduler takes from its lines on every operation it runs.
    @inlinable @inline(__always)
    package mutating func dropConsumedPrefix(head: inout Int) {
        if head == count {
            removeAll(keepingCapacity: true)
            head = 0
        } else if head > 64, head * 2 > count {
            removeFirst(head)
            head = 0
        }
    }
}
