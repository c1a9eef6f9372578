import Foundation

/// The operation's side of swift-corelibs-foundation's lists of dependents: what the library does
/// where Foundation's own handling of a dependency would leave an operation waiting forever or
/// deadlock its release.
extension ConditionalOperation {
    /// Foundation's own `cancel()`, for the runner: it posts `isCancelled` and zeroes Foundation's
    /// count of unfinished dependencies. Then the operation leaves its dependencies' lists of
    /// dependents and stays their dependent (S12).
    ///
    /// swift-corelibs-foundation lists a dependent in each unfinished dependency and, when that
    /// dependency finishes, visits it under the dependency's lock, retaining it a moment. A
    /// cancelled operation waits for nothing: it may finish and lose its last reference during
    /// that visit, and its deinit, which takes the dependency out of Foundation under the same
    /// lock, would wait forever. Removed and added again once cancelled, it stays listed in
    /// ``dependencies`` and is no longer visited; taking each dependency's lock also waits for a
    /// visit under way, so that once this returns none can retain the operation.
    func cancelInFoundation() {
        super.cancel()
        let dependencies = self.dependencies
        guard !dependencies.isEmpty else { return }
        for dependency in dependencies { super.removeDependency(dependency) }
        for dependency in dependencies { super.addDependency(dependency) }
        // Foundation's `removeDependency` lowers the count of a cancelled operation for a
        // dependency that finished: its `cancel()` sets it to zero again (not once started).
        super.cancel()
        takeBackWakes(from: dependencies)
    }
}
