import Foundation

extension ConditionalOperationQueue {
    /// Every operation added and not finished, with why it waits. A snapshot: each operation is
    /// read once, in turn.
    public var diagnoses: [OperationDiagnosis] {
        let operations = unfinishedOperations
        let known = OperationDiagnosis.KnownQueueStatus(self)  // once: it lists the queue's operations
        let cycles = DependencyCycles()  // one search for them all
        return operations.map { OperationDiagnosis(of: $0, known: known, cycles: cycles) }
    }

    /// ``diagnoses`` as a readable report: one line for the queue, then one per operation.
    ///
    /// ```
    /// ConditionalOperationQueue 'sync': 2 unfinished, running
    ///   Upload 'photos' (executing): executing for 42 s (it finishes only when it calls finish(); …)
    ///   Sync (pending): waiting for 1 dependency: Upload 'photos' (executing)
    /// ```
    public var diagnosticReport: String {
        let diagnoses = self.diagnoses
        let limit = maxConcurrentOperationCount
        let status =
            (isShutDown ? "shut down, " : "") + (isSuspended ? "suspended" : "running")
            + (limit == OperationQueue.defaultMaxConcurrentOperationCount ? "" : ", at most \(limit) at once")
        let header = "\(diagnosticName): \(diagnoses.count) unfinished, \(status)"
        return ([header] + diagnoses.map { "  \($0)" }).joined(separator: "\n")
    }
}

extension ConditionalOperationQueue {
    /// The type and name of the queue, for messages: `ConditionalOperationQueue 'sync'`.
    var diagnosticName: String {
        "\(String(describing: type(of: self)))" + (name.map { " '\($0)'" } ?? "")
    }
}
