/// Stops the program on a programming error (S13) with a message that names the operation and
/// the rule.
///
/// `fatalError`, not `preconditionFailure`: an optimised build drops the message of the latter and
/// prints only "precondition failure", which leaves the user guessing which operation and why.
enum Misuse {
    static func trap(_ message: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
        fatalError("ConditionalOperations: \(message)", file: file, line: line)
    }
}
