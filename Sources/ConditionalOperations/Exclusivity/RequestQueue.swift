/// A first-in, first-out queue with constant-time `append` and `removeFirst` (amortised).
struct RequestQueue {
    private var storage: [UInt64] = []
    private var head = 0

    var first: UInt64? { head < storage.count ? storage[head] : nil }

    mutating func append(_ element: UInt64) {
        storage.append(element)
    }

    mutating func removeFirst() {
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 64 && head * 2 > storage.count {
            storage.removeFirst(head)
            head = 0
        }
    }

    func count(where isCounted: (UInt64) -> Bool) -> Int {
        storage[head...].count(where: isCounted)
    }
}
