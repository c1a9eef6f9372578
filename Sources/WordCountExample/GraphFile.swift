import ConditionalOperations
import Foundation

/// A file to write the operations' graph to; its extension picks the format.
struct GraphFile {
    let path: String

    /// Mermaid for `.mmd` and `.md` (in a Markdown file, inside a ```` ```mermaid ```` block so
    /// that it is drawn), Graphviz DOT otherwise.
    var format: Format {
        if path.hasSuffix(".mmd") { return .mermaid }
        if path.hasSuffix(".md") { return .markdown }
        return .dot
    }

    /// Writes `graph` in the file's format, replacing the file.
    func write(_ graph: OperationGraph) throws(GraphWriteError) {
        let text =
            switch format {
            case .dot: graph.dot
            case .mermaid: graph.mermaid
            case .markdown: "```mermaid\n\(graph.mermaid)```\n"
            }
        do {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw GraphWriteError(path: path, underlying: error)
        }
    }

    enum Format: String {
        case dot = "Graphviz DOT"
        case mermaid = "Mermaid"
        case markdown = "Mermaid in Markdown"
    }
}

/// The graph could not be written.
struct GraphWriteError: Error, CustomStringConvertible {
    let path: String
    let underlying: any Error

    var description: String { "could not write the graph to '\(path)': \(underlying.localizedDescription)" }
}
