import ConditionalOperations

/// Prints every state transition an operation reports, with the time since program start.
///
/// With `printsLines == false` it only counts them in the log, for the summary at the end.
/// Observer callbacks of one operation never overlap, but those of different operations do,
/// on the threads that caused them: the observer itself holds nothing mutable.
struct TransitionObserver: OperationObserver {
    let log: TransitionLog
    let printsLines: Bool

    func operationDidStart(_ operation: ConditionalOperation) {
        guard printsLines else { return log.countHidden(started: true) }
        log.write("\(label(operation)): didStart")
    }

    func operationDidCancel(_ operation: ConditionalOperation, errors: [any Error]) {
        guard printsLines else { return log.countHidden(cancelled: true) }
        log.write("\(label(operation)): didCancel\(describe(errors))")
    }

    func operationDidFinish(_ operation: ConditionalOperation, errors: [any Error]) {
        guard printsLines else { return log.countHidden(finished: true, failed: !errors.isEmpty) }
        log.write("\(label(operation)): didFinish\(describe(errors))")
    }

    private func label(_ operation: ConditionalOperation) -> String {
        operation.name ?? String(describing: type(of: operation))
    }

    private func describe(_ errors: [any Error]) -> String {
        errors.isEmpty ? "" : " with errors: " + errors.map { String(describing: $0) }.joined(separator: "; ")
    }
}
