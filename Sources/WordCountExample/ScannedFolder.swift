import Foundation

/// The folder to scan: the first command-line argument, or the package's `Sources/` folder.
struct ScannedFolder: Sendable {
    /// The folder as the user named it (relative paths stay relative), without a trailing `/`.
    let displayName: String
    let url: URL

    /// Reads the folder from the program's arguments (`arguments[0]` is the program itself).
    /// Throws ``FolderError`` when the folder does not exist or is not a directory.
    init(arguments: [String]) throws(FolderError) {
        let given = arguments.dropFirst().first
        var name = given ?? "Sources"
        while name.count > 1 && name.hasSuffix("/") { name.removeLast() }

        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: name, isDirectory: &isDirectory) else {
            throw given == nil ? .defaultFolderMissing(name) : .missing(name)
        }
        guard isDirectory.boolValue else { throw .notADirectory(name) }

        displayName = name
        url = URL(fileURLWithPath: name, isDirectory: true).standardizedFileURL
    }
}

/// Why ``ScannedFolder`` could not be used.
enum FolderError: Error, CustomStringConvertible {
    case defaultFolderMissing(String)
    case missing(String)
    case notADirectory(String)

    var description: String {
        switch self {
        case .defaultFolderMissing(let name):
            "no folder given and '\(name)' does not exist in \(FileManager.default.currentDirectoryPath).\n"
                + "Run it from the package folder, or pass the folder to scan:"
                + " WordCountExample <folder> [--graph FILE]"
        case .missing(let name):
            "the folder '\(name)' does not exist."
        case .notADirectory(let name):
            "'\(name)' is not a folder."
        }
    }
}
