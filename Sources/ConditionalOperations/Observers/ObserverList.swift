/// The observers of one operation, in the order they were added. The first is stored inline:
/// most operations have at most one, and then the list allocates nothing (the memory target (README, Performance) counts bytes
/// per operation).
struct ObserverList: Sequence {
    private var first: (any OperationObserver)?
    private var rest: [any OperationObserver] = []

    var count: Int { first == nil ? 0 : 1 + rest.count }

    mutating func append(_ observer: any OperationObserver) {
        if first == nil {
            first = observer
        } else {
            rest.append(observer)
        }
    }

    func makeIterator() -> Iterator {
        Iterator(first: first, rest: rest.makeIterator())
    }

    struct Iterator: IteratorProtocol {
        fileprivate var first: (any OperationObserver)?
        fileprivate var rest: IndexingIterator<[any OperationObserver]>

        mutating func next() -> (any OperationObserver)? {
            if let observer = first {
                first = nil
                return observer
            }
            return rest.next()
        }
    }
}
