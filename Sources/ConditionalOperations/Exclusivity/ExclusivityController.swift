/// Grants mutually exclusive categories across the whole process, first come, first served.
///
/// Each category has a queue of requests in arrival order; a request holds its categories when it
/// is first in the queue of every one of them. Requests enter all their queues at once, under one
/// lock, so any two requests are in the same order in every queue they share: no request can wait
/// for another that waits for it, and several categories are acquired all or none.
///
/// A requester (an operation) has one request at a time. Queues hold tickets (the requester and
/// the request's serial number, never used again), so a released ticket left in a queue can't come
/// back to life through a new request at the same address. Releasing is idempotent and also
/// withdraws a request still waiting.
final class ExclusivityController: Sendable {
    static let shared = ExclusivityController()

    typealias Grant = @Sendable () -> Void

    private struct Request {
        let serial: UInt64
        let categories: [String]
        /// Taken (set to `nil`) when granted.
        var grant: Grant?
    }

    private struct State {
        var queues: [String: RequestQueue] = [:]
        var requests: [ObjectIdentifier: Request] = [:]
        var nextSerial: UInt64 = 0

        /// The requester first in `category`; released and withdrawn tickets are dropped on the way.
        mutating func holder(of category: String) -> ObjectIdentifier? {
            let requests = self.requests  // a reference, not a copy: read while `queues` changes
            let first = queues[category]?.dropFirst { requests[$0.requester]?.serial != $0.serial }
            if first == nil { queues[category] = nil }
            return first?.requester
        }

        /// Takes the grant of `requester` if it is now first in every one of its queues.
        mutating func takeGrantIfFirst(_ requester: ObjectIdentifier) -> Grant? {
            guard let request = requests[requester], request.grant != nil,
                request.categories.allSatisfy({ holder(of: $0) == requester })
            else { return nil }
            requests[requester]?.grant = nil
            return request.grant
        }
    }

    private let state = StateLock(State())

    /// Requests `categories` for `requester`; `grant` runs once they are all held, possibly
    /// before this returns, and always outside the lock.
    func acquire(_ categories: Set<String>, for requester: ObjectIdentifier, grant: @escaping Grant) {
        let granted = state.withLock { state -> Grant? in
            let ticket = RequestQueue.Ticket(requester: requester, serial: state.nextSerial)
            state.nextSerial += 1
            let ordered = Array(categories)
            state.requests[requester] = Request(serial: ticket.serial, categories: ordered, grant: grant)
            for category in ordered { state.queues[category, default: RequestQueue()].append(ticket) }
            return state.takeGrantIfFirst(requester)
        }
        granted?()
    }

    /// Gives back what `requester` holds, or withdraws its waiting request, and grants the
    /// requests that thereby became first.
    func release(for requester: ObjectIdentifier) {
        let grants = state.withLock { state -> [Grant] in
            guard let request = state.requests.removeValue(forKey: requester) else { return [] }
            return request.categories.compactMap { category in
                state.holder(of: category).flatMap { state.takeGrantIfFirst($0) }
            }
        }
        for grant in grants { grant() }
    }

    /// The requests holding or waiting for `category`, for diagnostics and tests.
    func requestCount(for category: String) -> Int {
        state.withLock { state in
            _ = state.holder(of: category)
            let requests = state.requests
            return state.queues[category]?.count { requests[$0.requester]?.serial == $0.serial } ?? 0
        }
    }
}

extension ExclusivityController {
    /// S7 in groups: the categories `operation` requests in place of `categories`.
    ///
    /// A child needing a category its group already holds would wait for the group, which waits
    /// for the child: a deadlock. So a category that an enclosing parent (the nearest one, see
    /// `OperationStateMachine.exclusivityParent`) declares is requested in that parent's scope
    /// instead: siblings still exclude each other, and everything outside waits for the whole
    /// group, which holds the category itself until every child finished. A parent declares the
    /// same categories it holds: its children only run while it executes.
    static func scoped(_ categories: Set<String>, for operation: ConditionalOperation) -> Set<String> {
        guard var parent = operation.machine.withLock({ $0.exclusivityParent }) else { return categories }
        var unresolved = categories
        var requested: Set<String> = []
        while true {
            let (held, grandparent) = parent.machine.withLock {
                ($0.declaredCategories, $0.exclusivityParent)
            }
            for category in unresolved.intersection(held) {
                requested.insert(scopedCategory(category, in: parent))
            }
            unresolved.subtract(held)
            guard !unresolved.isEmpty, let grandparent else { break }
            parent = grandparent
        }
        return requested.union(unresolved)
    }

    /// `category` private to the children of `parent`. A parent outlives its children's
    /// requests (it finishes after them), so its identity can't be reused while they hold it.
    static func scopedCategory(_ category: String, in parent: ConditionalOperation) -> String {
        "\(category)\u{1F}scope \(UInt(bitPattern: ObjectIdentifier(parent)))"
    }
}
