/// The program's arguments: an optional folder, `--graph FILE` and `--timeline FILE`.
struct CommandLineOptions {
    /// The arguments left for ``ScannedFolder``: the program, then the folder if one was given.
    let folderArguments: [String]
    /// Where to write the graph of the operations, if asked.
    let graphFile: GraphFile?
    /// Where to write the timeline of the run, if asked: Trace Event JSON if it ends in `.json`,
    /// an HTML page otherwise.
    let timelinePath: String?

    /// Reads `arguments` (`arguments[0]` is the program itself); `--graph FILE`,
    /// `--graph=FILE` and `--timeline FILE` may come before or after the folder.
    init(arguments: [String]) throws(OptionError) {
        var rest = Array(arguments.prefix(1))
        var graphFile: GraphFile?
        var timelinePath: String?
        var remaining = arguments.dropFirst()
        while let argument = remaining.popFirst() {
            if argument == "--timeline" {
                guard let path = remaining.popFirst(), !path.isEmpty else { throw .missingTimelineFile }
                timelinePath = path
            } else if argument == "--graph" {
                guard let path = remaining.popFirst(), !path.isEmpty else { throw .missingGraphFile }
                graphFile = GraphFile(path: path)
            } else if argument.hasPrefix("--graph=") {
                let path = String(argument.dropFirst("--graph=".count))
                guard !path.isEmpty else { throw .missingGraphFile }
                graphFile = GraphFile(path: path)
            } else {
                rest.append(argument)
            }
        }
        folderArguments = rest
        self.graphFile = graphFile
        self.timelinePath = timelinePath
    }
}

/// Why the arguments could not be used.
enum OptionError: Error, CustomStringConvertible {
    case missingGraphFile
    case missingTimelineFile

    var description: String {
        switch self {
        case .missingGraphFile:
            "--graph needs a file: WordCountExample [folder] [--graph FILE] [--timeline FILE]"
        case .missingTimelineFile:
            "--timeline needs a file: WordCountExample [folder] [--graph FILE] [--timeline FILE]"
        }
    }
}
