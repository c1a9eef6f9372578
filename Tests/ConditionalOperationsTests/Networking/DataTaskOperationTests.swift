import ConditionalOperations
import ConditionalOperationsNetworking
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension ConditionalOperationsTests {
    /// `DataTaskOperation` against a real HTTP server on 127.0.0.1 (`LocalHTTPServer`).
    @Suite(.serialized) struct DataTaskOperationTests {
        /// Runs `operation` and returns once it finished, within a time bound.
        static func run(_ operation: DataTaskOperation) async -> Bool {
            let done = completionLatch([operation])
            OperationQueue().addOperation(operation)
            return await done.wait(seconds: 30)
        }

        @Test func aSuccessfulRequestHandsOverTheBodyAndTheResponse() async throws {
            let server = try LocalHTTPServer()
            defer { server.stop() }
            let download = DataTaskOperation(url: server.url("/ok"))
            let body = try await OperationQueue().run(download)
            #expect(String(decoding: body.data, as: UTF8.self) == "hello")
            #expect(body.response.statusCode == 200)
            #expect(download.progress.fractionCompleted == 1)
        }

        @Test func anUnacceptableStatusFailsWithTheStatusAndTheURL() async throws {
            let server = try LocalHTTPServer()
            defer { server.stop() }
            let url = server.url("/missing")
            let download = DataTaskOperation(url: url)
            #expect(await Self.run(download))
            let error = download.errors.first as? DataTaskError
            #expect(error?.statusCode == 404)
            #expect(error?.url == url)
            #expect(download.errors.map { "\($0)" } == ["HTTP status 404 for \(url.absoluteString)"])
            if case .unacceptableStatus(_, _, let body)? = error {
                #expect(String(decoding: body, as: UTF8.self) == "no such thing")
            }
        }

        @Test func theAcceptableStatusesAreConfigurable() async throws {
            let server = try LocalHTTPServer()
            defer { server.stop() }
            let download = DataTaskOperation(url: server.url("/missing"), acceptableStatusCodes: 200..<500)
            let body = try await OperationQueue().run(download)
            #expect(body.response.statusCode == 404)
        }

        @Test func aServerThatNeverAnswersIsEndedByATimeoutObserver() async throws {
            let server = try LocalHTTPServer()
            defer { server.stop() }
            let download = DataTaskOperation(url: server.url("/never"))
            download.addObserver(TimeoutObserver(timeout: .seconds(0.5)))
            #expect(await Self.run(download))
            #expect(download.isCancelled)
            #expect(download.errors.map { "\($0)" } == ["timed out after 0.5 s"], "the cancel's error alone")
        }

        @Test func aRefusedConnectionIsATransportErrorWithTheURL() async {
            let url = LocalHTTPServer.refusedURL()
            let download = DataTaskOperation(url: url)
            #expect(await Self.run(download))
            let error = download.errors.first as? DataTaskError
            #expect(error?.url == url)
            #expect((error?.underlyingError as? URLError) != nil, "\(String(describing: error))")
            #expect(error?.statusCode == nil)
        }

        @Test func cancellingMidBodyCancelsTheTaskAndFinishes() async throws {
            let server = try LocalHTTPServer()
            defer { server.stop() }
            let download = DataTaskOperation(url: server.url("/stall"))
            let done = completionLatch([download])
            OperationQueue().addOperation(download)
            #expect(await server.stalled.wait())
            download.cancel(with: TestError(5))
            #expect(await done.wait(seconds: 30))
            #expect(download.isCancelled)
            #expect(testErrorIDs(download.errors) == [5], "the cancel's error, none of its own")
            #expect((try? download.result?.get()) == nil, "no body")
        }

        @Test func cancellingBeforeItExecutesFinishesWithoutARequest() async throws {
            let server = try LocalHTTPServer()
            defer { server.stop() }
            let download = DataTaskOperation(url: server.url("/ok"))
            download.cancel()
            #expect(await Self.run(download))
            #expect(download.isCancelled && (try? download.result?.get()) == nil)
        }
    }
}
