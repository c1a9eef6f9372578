import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking  // HTTPURLResponse lives there on Linux
#endif

/// What a ``DataTaskOperation`` loaded: the body and the HTTP response.
public struct HTTPResponseBody: @unchecked Sendable {
    // `HTTPURLResponse` is immutable once made; not every Foundation declares it `Sendable`.
    /// The body, empty if there was none.
    public let data: Data
    /// The response: status, headers, URL.
    public let response: HTTPURLResponse
}
