import ConditionalOperations

/// Records every state transition an operation reports in the log, with the time since program
/// start, for the program to print.
///
/// With `keepsLines == false` it only counts them in the log, for a one-line summary.
/// Observer callbacks of one operation never overlap, but those of different operations do,
/// on the threads that caused them: the observer itself holds nothing mutable.
struct TransitionObserver: OperationObserver {
    let log: TransitionLog
    let keepsLines: Bool

    func operationDidStart(_ operation: ConditionalOperation) {
        guard keepsLines else { return log.countHidden(started: true) }
        log.record("didStart", of: operation)
    }

    func operationDidCancel(_ operation: ConditionalOperation, errors: [any Error]) {
        guard keepsLines else { return log.countHidden(cancelled: true) }
        log.record("didCancel\(describe(errors))", of: operation)
    }

    func operationDidFinish(_ operation: ConditionalOperation, errors: [any Error]) {
        guard keepsLines else { return log.countHidden(finished: true, failed: !errors.isEmpty) }
        log.record("didFinish\(describe(errors))", of: operation)
    }

    private func describe(_ errors: [any Error]) -> String {
        errors.isEmpty ? "" : " with errors: " + errors.map { String(describing: $0) }.joined(separator: "; ")
    }
}
