import ConditionalOperations
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking  // URLSession lives there on Linux
#endif

/// Loads a URL request with a `URLSession` data task: the classic network operation. Its output
/// is the body and the HTTP response (``HTTPResponseBody``).
///
/// ```swift
/// import ConditionalOperations
/// import ConditionalOperationsNetworking
///
/// let download = DataTaskOperation(url: URL(string: "https://example.com/users.json")!)
/// download.addObserver(TimeoutObserver(timeout: .seconds(30)))
/// let users = try JSONDecoder().decode([User].self, from: try await queue.run(download).data)
/// ```
///
/// - **Errors**: a transport error (no response: offline, refused, reset) and a status outside
///   `acceptableStatusCodes` (default: 200–299) finish it with a ``DataTaskError`` that names the
///   URL and, for a status, the code and the body.
/// - **Cancelling** it cancels the task; it finishes when the task ended (its
///   `finishesWhenCancelled` is `false`), with the cancel's errors and no error of its own. A
///   `TimeoutObserver` bounds it this way.
/// - **Progress**: its `progress` follows the task's; cancelling the progress cancels the
///   operation and the task.
///
/// On Linux, `URLSession` is in `FoundationNetworking`: import it to make a session of your own.
open class DataTaskOperation: ResultOperation<HTTPResponseBody>, @unchecked Sendable {
    // mutable state: `lockedTask`, behind the operation's own lock (`withOwnLock`)
    /// The request it loads.
    public let request: URLRequest
    /// The session its task runs in.
    public let session: URLSession
    /// The statuses that count as success; any other finishes it with
    /// ``DataTaskError/unacceptableStatus(_:url:body:)``.
    public let acceptableStatusCodes: Range<Int>

    /// Only reached under the operation's own lock, which makes every access exclusive.
    @exclusivity(unchecked) private var lockedTask = StartedWork<URLSessionDataTask>.notStarted

    /// Loads `request` in `session` once it executes.
    public init(
        request: URLRequest, session: URLSession = .shared, acceptableStatusCodes: Range<Int> = 200..<300
    ) {
        self.request = request
        self.session = session
        self.acceptableStatusCodes = acceptableStatusCodes
        super.init()
    }

    /// Loads `url` with a GET request in `session` once it executes.
    public convenience init(
        url: URL, session: URLSession = .shared, acceptableStatusCodes: Range<Int> = 200..<300
    ) {
        self.init(
            request: URLRequest(url: url), session: session, acceptableStatusCodes: acceptableStatusCodes)
    }

    /// `false`: a cancelled data task operation finishes once its task ended, so that its
    /// dependents never start beside the request (S5).
    public final override var finishesWhenCancelled: Bool { false }

    /// Starts the task. Its completion finishes the operation.
    open override func execute() {
        let url = request.url
        let acceptable = acceptableStatusCodes
        let task = session.dataTask(with: request) { [self] data, response, error in
            let outcome = Self.outcome(
                data: data, response: response, error: error, url: url, acceptable: acceptable)
            _ = withOwnLock { lockedTask.end() }  // the task is dropped once unlocked
            switch outcome {
            case .success(let body): finish(returning: body)
            case .failure(let error)
            where isCancelled && (error.underlyingError as? URLError)?.code == .cancelled:
                finish(errors: [])  // the cancel's errors tell why
            case .failure(let error): finish(errors: [error])
            }
        }
        progress.addChild(task.progress, withPendingUnitCount: progress.totalUnitCount)
        let cancelled = withOwnLock { lockedTask.start(task) }
        task.resume()
        if cancelled { task.cancel() }
    }

    /// Cancels the operation and its task.
    ///
    /// The task is taken (or, before it is made, the cancel is recorded for it) in the cancel's
    /// own trip through the lock, and cancelled once unlocked.
    open override func cancel() {
        cancel(recording: { _ in lockedTask.cancel() })?.cancel()
    }

    /// What the task's completion means.
    private static func outcome(
        data: Data?, response: URLResponse?, error: (any Error)?, url: URL?, acceptable: Range<Int>
    ) -> Result<HTTPResponseBody, DataTaskError> {
        if let error { return .failure(.transport(error, url: url)) }
        guard let response = response as? HTTPURLResponse else {
            return .failure(.transport(URLError(.badServerResponse), url: url))
        }
        guard acceptable.contains(response.statusCode) else {
            return .failure(.unacceptableStatus(response.statusCode, url: url, body: data ?? Data()))
        }
        return .success(HTTPResponseBody(data: data ?? Data(), response: response))
    }
}
