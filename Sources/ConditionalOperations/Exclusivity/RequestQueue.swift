/// A first-in, first-out queue with constant-time `append` and `removeFirst` (amortised).
struct RequestQueue<Element> {
    private var storage: [Element] = []
    private var head = 0

    mutating func append(_ element: Element) {
        storage.append(element)
    }

    /// Drops the elements at the front while `isReleased`; returns the first one kept, if any.
    mutating func dropFirst(while isReleased: (Element) -> Bool) -> Element? {
        while head < storage.count, isReleased(storage[head]) { removeFirst() }
        return head < storage.count ? storage[head] : nil
    }

    /// The elements from the front, in order.
    var elements: ArraySlice<Element> { storage[head...] }

    func count(where isCounted: (Element) -> Bool) -> Int {
        storage[head...].count(where: isCounted)
    }

    private mutating func removeFirst() {
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 64 && head * 2 > storage.count {
            storage.removeFirst(head)
            head = 0
        }
    }
}
