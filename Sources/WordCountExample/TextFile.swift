import Foundation

/// One file to count, with the path shown in messages.
struct TextFile: Sendable {
    let url: URL
    /// The path as shown to the user: the folder as given, then the path inside it.
    let displayPath: String

    /// A file that does not exist, added on purpose to demonstrate a failing condition.
    static func missingOnPurpose(in folder: ScannedFolder) -> TextFile {
        let name = "missing-on-purpose.txt"
        return TextFile(
            url: folder.url.appendingPathComponent(name),
            displayPath: "\(folder.displayName)/\(name) (demonstration)")
    }
}
