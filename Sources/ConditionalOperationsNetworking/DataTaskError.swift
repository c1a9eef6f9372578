import Foundation

/// Why a ``DataTaskOperation`` failed, with the URL it loaded.
public enum DataTaskError: Error, Sendable, CustomStringConvertible {
    /// No response: offline, a host not found, a connection refused or reset (`error`, usually a
    /// `URLError`).
    case transport(any Error, url: URL?)
    /// The server answered with a status outside the operation's `acceptableStatusCodes`; `body` is
    /// what it sent.
    case unacceptableStatus(Int, url: URL?, body: Data)

    /// The status code of ``unacceptableStatus(_:url:body:)``, else `nil`.
    public var statusCode: Int? {
        if case .unacceptableStatus(let code, _, _) = self { return code }
        return nil
    }

    /// The URL it loaded.
    public var url: URL? {
        switch self {
        case .transport(_, let url), .unacceptableStatus(_, let url, _): url
        }
    }

    /// The transport error of ``transport(_:url:)``, else `nil`.
    public var underlyingError: (any Error)? {
        if case .transport(let error, _) = self { return error }
        return nil
    }

    /// `HTTP status 404 for http://127.0.0.1:8080/missing`, `could not load http://…: …`.
    public var description: String {
        let address = url?.absoluteString ?? "(no URL)"
        switch self {
        case .transport(let error, _): return "could not load \(address): \(error)"
        case .unacceptableStatus(let code, _, _): return "HTTP status \(code) for \(address)"
        }
    }
}
