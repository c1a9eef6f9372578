import Foundation

/// Drops the dependencies of deallocated operations one after another, instead of each inside
/// the deinit of its dependent: Foundation keeps strong references to dependencies, and dropping
/// a chain of tens of thousands of operations that way overflows the stack (on Linux from 35k).
enum DependencyDrop {
    private struct State {
        var pending: [[Foundation.Operation]] = []
        var isDropping = false
    }

    private static let state = Locked(State())

    /// Takes `operations` (leaving it empty) and drops them now, or after the drop already
    /// under way on some thread.
    static func drop(_ operations: inout [Foundation.Operation]) {
        let drops = state.withLock { state in
            state.pending.append(operations)
            guard !state.isDropping else { return false }
            state.isDropping = true
            return true
        }
        operations = []  // the pending list must hold the only references
        guard drops else { return }
        while var batch = state.withLock({ state -> [Foundation.Operation]? in
            guard let batch = state.pending.popLast() else {
                state.isDropping = false
                return nil
            }
            return batch
        }) {
            batch.removeAll()  // may deallocate operations, whose deinit appends to `pending`
        }
    }
}
