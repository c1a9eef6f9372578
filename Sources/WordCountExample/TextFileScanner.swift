import Foundation

/// Finds the text files of a folder.
enum TextFileScanner {
    /// The extensions counted as text.
    static let textExtensions: Set<String> = ["swift", "md", "txt"]

    /// Every text file under `folder`, recursively, hidden files and folders excepted, sorted by path.
    static func textFiles(in folder: ScannedFolder) -> [TextFile] {
        guard
            let enumerator = FileManager.default.enumerator(
                at: folder.url, includingPropertiesForKeys: [.isRegularFileKey],
                options: [.skipsHiddenFiles])
        else { return [] }

        let rootComponents = folder.url.pathComponents
        var files: [TextFile] = []
        for case let url as URL in enumerator {
            guard textExtensions.contains(url.pathExtension.lowercased()),
                (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
            else { continue }
            let inside = url.standardizedFileURL.pathComponents.dropFirst(rootComponents.count)
            files.append(
                TextFile(url: url, displayPath: ([folder.displayName] + inside).joined(separator: "/")))
        }
        return files.sorted { $0.displayPath < $1.displayPath }
    }
}
