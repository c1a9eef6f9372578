import Foundation

@testable import ConditionalOperations

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1 for the data-task tests, written on the platform's sockets
/// (no package dependency). Each connection gets one answer, chosen by the request's path:
///
/// - `/ok`: 200 with the body `hello`
/// - `/missing`: 404 with the body `no such thing`
/// - `/never`: no answer; the connection stays open until the server stops
/// - `/stall`: a 200 that announces 1 MB and sends 1 KB of it, then nothing
/// - `/large`: a 200 with a body of 8 MB
///
/// A client that hangs up before the answer was sent never raises `SIGPIPE`, which would end the
/// test process: the answer is given up, and `gaveUp` counts it.
final class LocalHTTPServer: Sendable {
    let port: UInt16
    private let listener: Int32
    /// Connections left open on purpose, closed when the server stops.
    private let held = Locked<[Int32]>([])
    /// Released when `/stall` has sent the first part of its body.
    let stalled = Latch()
    /// Released when an answer could not be sent: its client hung up.
    let gaveUp = Latch()

    /// `SOCK_STREAM`: an enum case in glibc's headers, an `Int32` in Darwin's and musl's.
    private static var streamType: Int32 {
        #if canImport(Glibc)
            Int32(SOCK_STREAM.rawValue)
        #else
            SOCK_STREAM
        #endif
    }

    init() throws {
        let listener = socket(AF_INET, Self.streamType, 0)
        guard listener >= 0 else { throw POSIXError(.EMFILE) }
        var one: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0  // any free port
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(listener, 16) == 0 else {
            close(listener)
            throw POSIXError(.EADDRINUSE)
        }
        self.listener = listener
        self.port = Self.port(of: listener)
        Thread.detachNewThread { [self] in acceptConnections() }
    }

    /// The URL of `path` on this server.
    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// Stops accepting and closes every connection left open.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        for connection in held.withLock({ $0 }) { close(connection) }
    }

    /// A URL on 127.0.0.1 where nothing listens: connecting is refused.
    static func refusedURL() -> URL {
        let socket = socket(AF_INET, streamType, 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        let port = Self.port(of: socket)
        close(socket)  // bound a moment to learn a free port; nothing listens there now
        return URL(string: "http://127.0.0.1:\(port)/refused")!
    }

    /// Asks for `path` and hangs up at once, reading nothing: the server's answer then meets a
    /// closed connection.
    func requestAndHangUp(_ path: String) throws {
        let client = socket(AF_INET, Self.streamType, 0)
        guard client >= 0 else { throw POSIXError(.EMFILE) }
        defer { close(client) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ socketSend(client, $0.baseAddress, $0.count) }) == request.count
        else { throw POSIXError(.EPIPE) }
    }

    private static func port(of socket: Int32) -> UInt16 {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        return UInt16(bigEndian: address.sin_port)
    }

    private func acceptConnections() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }  // stopped
            sendWithoutSIGPIPE(on: connection)
            Thread.detachNewThread { [self] in serve(connection) }
        }
    }

    private func serve(_ connection: Int32) {
        var request = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !request.ends(with: Array("\r\n\r\n".utf8)) {
            let count = read(connection, &buffer, buffer.count)
            guard count > 0 else {
                close(connection)
                return
            }
            request += buffer[..<count]
        }
        let firstLine = String(decoding: request, as: UTF8.self).split(separator: "\r\n").first ?? ""
        let path = firstLine.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
        switch path {
        case "/ok":
            respond(connection, status: "200 OK", body: "hello")
        case "/missing":
            respond(connection, status: "404 Not Found", body: "no such thing")
        case "/never":
            held.withLock { $0.append(connection) }
            return
        case "/large":
            respond(connection, status: "200 OK", body: String(repeating: "A", count: 8 << 20))
        case "/stall":
            let head = "HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\nContent-Type: text/plain\r\n\r\n"
            writeAll(connection, Array(head.utf8) + [UInt8](repeating: 65, count: 1024))
            held.withLock { $0.append(connection) }
            stalled.countDown()
            return
        default:
            respond(connection, status: "400 Bad Request", body: "unknown path \(path)")
        }
        close(connection)
    }

    private func respond(_ connection: Int32, status: String, body: String) {
        let response =
            "HTTP/1.1 \(status)\r\nContent-Length: \(body.utf8.count)\r\nContent-Type: text/plain\r\n"
            + "Connection: close\r\n\r\n\(body)"
        writeAll(connection, Array(response.utf8))
    }

    private func writeAll(_ connection: Int32, _ bytes: [UInt8]) {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { socketSend(connection, $0.baseAddress, $0.count) }
            guard count > 0 else { return gaveUp.countDown() }
            sent += count
        }
    }
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}

/// The platform's `send(2)`, out of reach of the server's own methods' names. Sending to a client
/// that hung up raises `SIGPIPE` unless told not to: Linux takes `MSG_NOSIGNAL` on each send,
/// Darwin has no such flag and takes `SO_NOSIGPIPE` on the socket (``sendWithoutSIGPIPE(on:)``).
private func socketSend(_ socket: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
        Glibc.send(socket, bytes, count, Int32(MSG_NOSIGNAL))
    #elseif canImport(Musl)
        Musl.send(socket, bytes, count, Int32(MSG_NOSIGNAL))
    #else
        Darwin.send(socket, bytes, count, 0)
    #endif
}

/// Darwin: no send on `socket` raises `SIGPIPE` (elsewhere each send says so, ``socketSend``).
private func sendWithoutSIGPIPE(on socket: Int32) {
    #if canImport(Darwin)
        var one: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
    #endif
}
