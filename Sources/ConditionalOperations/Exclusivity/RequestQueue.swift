/// A first-in, first-out queue of tickets with constant-time `append` and `removeFirst` (amortised).
struct RequestQueue {
    /// One request's place in a category's queue.
    struct Ticket {
        let requester: ObjectIdentifier
        let serial: UInt64
    }

    private var storage: [Ticket] = []
    private var head = 0

    mutating func append(_ ticket: Ticket) {
        storage.append(ticket)
    }

    /// Drops the tickets at the front while `isReleased`; returns the first one kept, if any.
    mutating func dropFirst(while isReleased: (Ticket) -> Bool) -> Ticket? {
        while head < storage.count, isReleased(storage[head]) { removeFirst() }
        return head < storage.count ? storage[head] : nil
    }

    func count(where isCounted: (Ticket) -> Bool) -> Int {
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
