import Foundation

/// Debug-build messages about ignored misuse, on standard error.
enum Diagnostics {
    static func log(_ message: String) {
        FileHandle.standardError.write(Data("ConditionalOperations: \(message)\n".utf8))
    }
}
