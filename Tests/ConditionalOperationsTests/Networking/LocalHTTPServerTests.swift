import ConditionalOperations
import ConditionalOperationsNetworking
import Foundation
import Testing

extension ConditionalOperationsTests {
    /// The test server itself: a client that hangs up never ends the test process.
    @Suite struct LocalHTTPServerTests {
        /// Sending to a closed connection raises `SIGPIPE`, which ends the process, unless the
        /// send says otherwise (`MSG_NOSIGNAL` on Linux, `SO_NOSIGPIPE` on Darwin).
        @Test func aClientThatHangsUpRaisesNoSIGPIPE() async throws {
            let server = try LocalHTTPServer()
            defer { server.stop() }
            try server.requestAndHangUp("/large")
            #expect(await server.gaveUp.wait(seconds: 30), "the answer met the closed connection")
            // Still running, and still serving.
            let body = try await OperationQueue().run(DataTaskOperation(url: server.url("/ok")))
            #expect(String(decoding: body.data, as: UTF8.self) == "hello")
        }
    }
}
