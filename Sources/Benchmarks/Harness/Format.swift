import Foundation

/// Number formatting for the table and the log.
enum Format {
    static func seconds(_ duration: Duration) -> String {
        let value = duration.seconds
        return value < 0.1 ? String(format: "%.2f ms", value * 1000) : String(format: "%.3f s", value)
    }

    static func microsecondsPerOperation(_ duration: Duration, _ operations: Int) -> String {
        String(format: "%.2f", duration.seconds * 1e6 / Double(max(operations, 1)))
    }

    static func bytes(_ value: Double) -> String {
        String(format: "%.0f B", value)
    }

    static func signedBytes(_ value: Double) -> String {
        String(format: "%+.0f B", value)
    }

    static func ratio(_ value: Double) -> String {
        String(format: "%.2f", value)
    }
}
