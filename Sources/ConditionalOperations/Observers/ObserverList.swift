/// The observers of one operation, in the order they were added. The first is stored inline:
/// most operations have at most one, and then the list allocates nothing (the memory target (README, Performance) counts bytes
/// per operation).
///
/// Not a `Sequence`: an iterator would copy the inline observer, also when there is none, each
/// time an operation tells its observers anything; ``tell(_:)`` copies nothing of an empty list.
struct ObserverList {
    private var first: (any OperationObserver)?
    private var rest: [any OperationObserver] = []

    var isEmpty: Bool {
        guard case .some = first else { return true }
        return false
    }

    var count: Int { isEmpty ? 0 : 1 + rest.count }

    mutating func append(_ observer: any OperationObserver) {
        if isEmpty {
            first = observer
        } else {
            rest.append(observer)
        }
    }

    /// Calls `body` with each observer, in the order they were added.
    func tell(_ body: (any OperationObserver) -> Void) {
        guard let first else { return }
        body(first)
        for observer in rest { body(observer) }
    }

    /// The observers after the first `count`, in order.
    func dropFirst(_ count: Int) -> [any OperationObserver] {
        var all: [any OperationObserver] = []
        tell { all.append($0) }
        return Array(all.dropFirst(count))
    }
}
