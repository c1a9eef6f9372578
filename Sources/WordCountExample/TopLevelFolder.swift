/// The files of one folder at the top of the scanned folder: they are counted together, in one
/// `GroupOperation`, and summarised together.
struct TopLevelFolder: Sendable {
    /// As shown to the user: `Sources/Benchmarks`, or `Sources` itself for the files directly in it.
    let displayName: String
    let files: [TextFile]

    /// `files` by the first folder under `root` that holds each; the files directly in `root`
    /// (if any) come first, under `root`'s own name, then the folders sorted by name.
    static func grouping(_ files: [TextFile], in root: ScannedFolder) -> [TopLevelFolder] {
        var filesByFolder: [String: [TextFile]] = [:]
        for file in files {
            // The display path is the root's name, "/", then the path inside the root.
            let inside = file.displayPath.dropFirst(root.displayName.count + 1).split(separator: "/")
            let folder = inside.count > 1 ? "\(root.displayName)/\(inside[0])" : root.displayName
            filesByFolder[folder, default: []].append(file)
        }
        return filesByFolder.sorted { $0.key < $1.key }.map {
            TopLevelFolder(displayName: $0.key, files: $0.value)
        }
    }
}
