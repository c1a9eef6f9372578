import Foundation

/// Releases the dependencies of deallocated operations one after another, instead of each inside
/// the deinit of its dependent: on Linux, releasing a chain of 35k or more operations that way
/// overflows the stack (Foundation keeps strong references to dependencies).
enum DeferredRelease {
    private struct State {
        var pending: [[Foundation.Operation]] = []
        var isDraining = false
    }

    private static let state = Locked(State())

    /// Takes `operations` (leaving it empty) and drops them now, or after the release already
    /// under way on some thread.
    static func release(_ operations: inout [Foundation.Operation]) {
        let drains = state.withLock { state in
            state.pending.append(operations)
            guard !state.isDraining else { return false }
            state.isDraining = true
            return true
        }
        operations = []  // the pending list must hold the only references
        guard drains else { return }
        while var batch = state.withLock({ state -> [Foundation.Operation]? in
            guard let batch = state.pending.popLast() else {
                state.isDraining = false
                return nil
            }
            return batch
        }) {
            batch.removeAll()  // may deallocate operations, whose deinit appends to `pending`
        }
    }
}
