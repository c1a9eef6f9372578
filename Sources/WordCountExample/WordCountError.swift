/// Why a readable file could still not be counted.
enum WordCountError: Error, CustomStringConvertible {
    /// The file's bytes are not valid UTF-8.
    case notUTF8Text

    var description: String {
        switch self {
        case .notUTF8Text: "not UTF-8 text"
        }
    }
}
