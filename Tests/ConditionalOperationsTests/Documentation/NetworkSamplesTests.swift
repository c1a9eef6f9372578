import ConditionalOperations
import ConditionalOperationsNetworking
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension ConditionalOperationsTests {
    /// The samples of `DataTaskOperation`'s documentation, of the `ConditionalOperationsNetworking`
    /// catalog and of its section in `ComposingOperations.md`, verbatim (checked by
    /// `DocumentationSamplesTests`).
    @Suite struct NetworkSamplesTests {
        struct User: Decodable, Equatable { let name: String }
        struct Feed: Decodable { let title: String }

        /// Compiled, not run: it would reach the network.
        static func theDocCommentSample(queue: OperationQueue) async throws -> [User] {
            let download = DataTaskOperation(url: URL(string: "https://example.com/users.json")!)
            download.addObserver(TimeoutObserver(timeout: .seconds(30)))
            let users = try JSONDecoder().decode([User].self, from: try await queue.run(download).data)
            return users
        }

        @Test func theComposingOperationsSample() async throws {
            let server = try LocalHTTPServer()
            defer { server.stop() }
            let queue = OperationQueue()
            let feedURL = server.url("/missing")
            await #expect(throws: DataTaskError.self) {
                let download = DataTaskOperation(url: feedURL)
                download.addObserver(TimeoutObserver(timeout: .seconds(30)))
                let feed = try JSONDecoder().decode(Feed.self, from: try await queue.run(download).data)
                _ = feed
            }
        }

    }
}
