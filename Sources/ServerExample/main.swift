// The program of the article "Running operations in a server" (RunningInAServer.md): its Swift
// blocks, in order, are this file. CI runs it as `swift run ServerExample --send-sigterm`.
import ConditionalOperations
import Dispatch
import Foundation

/// The request being served: a task-local value, as a tracing span or logging metadata is.
enum RequestID {
    @TaskLocal static var current: String?
}

/// Hears each request's work start: the run that sends itself SIGTERM waits for both.
let (workStarts, workStarted) = AsyncStream.makeStream(of: Void.self)

/// The work of one request. It reads the request id of the task that called `queue.run`.
func handleRequest(taking duration: Duration) -> AsyncOperation<String> {
    AsyncOperation(name: "handle request") {
        workStarted.yield()
        try await Task.sleep(for: duration)
        return "handled request \(RequestID.current ?? "?")"
    }
}

let queue = ConditionalOperationQueue()
queue.name = "requests"
// `--timeline FILE`: the run is recorded, and its page written to FILE once the server stopped.
let timelineFile = CommandLine.arguments.drop { $0 != "--timeline" }.dropFirst().first
if timelineFile != nil { queue.timeline = OperationTimeline() }

/// Serves one request as a server's handler would: in a task whose task-local values the
/// operation's work sees (S22).
func serve(_ id: String, taking duration: Duration) -> Task<String, Never> {
    RequestID.$current.withValue(id) {
        Task {
            do {
                return try await queue.run(handleRequest(taking: duration))
            } catch {
                return "request \(id) failed: \(error)"
            }
        }
    }
}

/// The backend behind the queue: a user's profile, slow to fetch; it counts its fetches.
actor Backend {
    private(set) var fetches = 0

    func profile(of id: Int) async throws -> String {
        fetches += 1
        try await Task.sleep(for: .milliseconds(300))
        return "profile of user \(id)"
    }
}

let backend = Backend()

/// One request's lookup: requests asking for the same user at once share one fetch (S27).
func profile(of id: Int) async throws -> String {
    let fetch = AsyncOperation(name: "fetch profile") { try await backend.profile(of: id) }
    fetch.coalescingKey = "profile:\(id)"
    return try await queue.run(fetch)
}

// Three requests for one user, at once: one fetch, its value returned to each.
let profiles = try await withThrowingTaskGroup(of: String.self) { group in
    for _ in 0..<3 { group.addTask { try await profile(of: 42) } }
    var profiles: [String] = []
    for try await profile in group { profiles.append(profile) }
    return profiles
}
print("\(profiles.count) requests for user 42, \(await backend.fetches) fetch: \(profiles[0])")

// SIGTERM: stop taking work, give the requests that run a grace period, cancel the rest, exit.
signal(SIGTERM, SIG_IGN)  // Dispatch's source hears it, instead of the default action
// On the main queue: a closure written in top-level code belongs to the main actor.
let sigterm = DispatchSource.makeSignalSource(signal: SIGTERM, queue: .main)
let terminated = AsyncStream<Void> { continuation in
    sigterm.setEventHandler { continuation.yield() }
}
// Dispatch registers the source after resume() returns: a SIGTERM before then is ignored, and lost.
await withCheckedContinuation { registered in
    sigterm.setRegistrationHandler { registered.resume() }
    sigterm.resume()
}

let requests = [
    serve("r1", taking: .milliseconds(100)),  // ends within the grace period
    serve("r2", taking: .seconds(3_600)),  // still running when it ends: cancelled
]

if CommandLine.arguments.contains("--send-sigterm") {
    for await _ in workStarts.prefix(requests.count) {}  // both run, as when an operator's kill comes
    kill(getpid(), SIGTERM)
}

for await _ in terminated { break }
print("SIGTERM: shutting down")
await queue.shutdown(gracePeriod: .seconds(1))
for request in requests { print(await request.value) }
if let timelineFile, let timeline = queue.timeline {
    try timeline.html().write(toFile: timelineFile, atomically: true, encoding: .utf8)
}
print("idle: exiting")
