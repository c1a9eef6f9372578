/// The observers of one operation, in the order they were added, each a ``KeptObserver``: no
/// existential, so that the operation's machine, which keeps the list, is a value the compiler
/// copies and destroys field by field. Kept as existentials, the observers made the machine and
/// the actions that hand them out values copied through their types' metadata: 6% of a no-op
/// operation's instructions, observers or not (callgrind, 20k operations).
///
/// Most operations have at most one observer: then the list allocates nothing of its own.
enum ObserverList {
    case none
    case one(KeptObserver)
    case several([KeptObserver])

    init() {
        self = .none
    }

    var isEmpty: Bool {
        if case .none = self { return true }
        return false
    }

    var count: Int {
        switch self {
        case .none: 0
        case .one: 1
        case .several(let observers): observers.count
        }
    }

    mutating func append(_ observer: KeptObserver) {
        switch self {
        case .none: self = .one(observer)
        case .one(let first): self = .several([first, observer])
        case .several(var observers):
            self = .none  // the array is appended to in place, not copied
            observers.append(observer)
            self = .several(observers)
        }
    }

    /// Calls `body` with each observer, in the order they were added.
    func tell(_ body: (KeptObserver) -> Void) {
        switch self {
        case .none: break
        case .one(let observer): body(observer)
        case .several(let observers): for observer in observers { body(observer) }
        }
    }

    /// The observers after the first `count`, in order.
    func dropFirst(_ count: Int) -> [KeptObserver] {
        var all: [KeptObserver] = []
        tell { all.append($0) }
        return Array(all.dropFirst(count))
    }
}
